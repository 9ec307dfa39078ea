// A tiny MCP server (stdio) whose tool names, titles, descriptions and error texts are hostile:
// HTML and script payloads, bidi overrides, zero-width and control characters. Used by
// survival.py to check that nothing a server sends runs or hides in the window.
//   node hostile_mcp.mjs <canary base URL> [--list | --crash]
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, '..', 'mcp', 'package.json'));
const { Server } = require('@modelcontextprotocol/sdk/server/index.js');
const { StdioServerTransport } = require('@modelcontextprotocol/sdk/server/stdio.js');
const { ListToolsRequestSchema, CallToolRequestSchema } = require('@modelcontextprotocol/sdk/types.js');

const canary = process.argv[2] ?? 'http://127.0.0.1:9/hit';
const anything = { type: 'object', additionalProperties: true };
// `node hostile_mcp.mjs <canary> --list` prints these, so survival.py knows what the window must show.
const TOOLS = [
  {
    name: 'echo',
    title: `<img src="${canary}/title" onerror="window.__pwned='title'">\u202Egnp.exe\u200B\u2028next\u0007`,
    description: `</script><script>window.__pwned='desc'</script>{@html '<svg onload=window.__pwned=1>'} {{7*7}} \u2066hidden\u2069 javascript:alert(1)`,
    inputSchema: anything,
    annotations: { title: `<b>bold</b>\u202Eevil\u0085line\u00a0nbsp\uFEFF`, destructiveHint: true },
  },
  {
    name: `<img src=x onerror="window.__pwned='name'">\u202E`,
    description: '<svg/onload=window.__pwned=2>',
    inputSchema: anything,
  },
  {
    name: 'fail',
    title: 'fails on purpose',
    description: 'Always reports an error whose text is hostile.',
    inputSchema: anything,
  },
];

if (process.argv[3] === '--crash') {
  // A server that dies at start, leaving hostile text on stderr (shown in Settings).
  process.stderr.write(`<img src="${canary}/stderr" onerror="window.__pwned='stderr'">\u202Eexe.txt\u0007 <script>window.__pwned='stderr'</script>\n`);
  process.exit(1);
}
if (process.argv[3] === '--list') {
  process.stdout.write(JSON.stringify(TOOLS));
  process.exit(0);
}

const server = new Server({ name: 'hostile<script>', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS }));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  if (request.params.name === 'fail') {
    return {
      isError: true,
      content: [{ type: 'text', text: `<img src="${canary}/error" onerror="window.__pwned='error'">\u202Etxt.exe\u0000\u001b[31mred\u2028end` }],
    };
  }
  return { content: [{ type: 'text', text: JSON.stringify(request.params.arguments ?? {}) }] };
});
await server.connect(new StdioServerTransport());
