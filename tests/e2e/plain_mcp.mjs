// A plain MCP server (stdio) with one tool, `greet`, that answers "hello <who>": an ordinary
// server for the tests that look at how Ask First words an MCP tool's card and status.
//   node plain_mcp.mjs
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, '..', 'mcp', 'package.json'));
const { Server } = require('@modelcontextprotocol/sdk/server/index.js');
const { StdioServerTransport } = require('@modelcontextprotocol/sdk/server/stdio.js');
const { ListToolsRequestSchema, CallToolRequestSchema } = require('@modelcontextprotocol/sdk/types.js');

const server = new Server({ name: 'plain', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [{
    name: 'greet',
    description: 'Says hello to someone',
    inputSchema: { type: 'object', properties: { who: { type: 'string' } } },
  }],
}));
server.setRequestHandler(CallToolRequestSchema, async (request) => ({
  content: [{ type: 'text', text: `hello ${request.params.arguments?.who ?? ''}` }],
}));
await server.connect(new StdioServerTransport());
