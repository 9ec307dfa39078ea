import { mount } from 'svelte';
import App from './App.svelte';
import { rehearseAfterFirstPaint } from './lib/approvals/rehearsal';
import './app.css';

const target = document.getElementById('app');
if (!target) throw new Error('index.html has no #app element');
const app = mount(App, { target });
// The first approval card then costs the page what any later one does (see rehearsal.ts).
rehearseAfterFirstPaint();
export default app;
