import { mount } from 'svelte';
import App from './App.svelte';
import { rehearseAfterFirstPaint } from './lib/approvals/rehearsal';
import './app.css';

// Marks for the start benchmark (tests/bench/app_bench.py, part `start`): every module of the
// page has been evaluated here, and the first screen built after `mount`.
performance.mark('askfirst-modules-evaluated');
const target = document.getElementById('app');
if (!target) throw new Error('index.html has no #app element');
const app = mount(App, { target });
performance.mark('askfirst-mounted');
// The first approval card then costs the page what any later one does (see rehearsal.ts).
rehearseAfterFirstPaint();
export default app;
