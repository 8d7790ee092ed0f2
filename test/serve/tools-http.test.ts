// The MCP tool suite (test/mcp/tool-suite.ts) over HTTP, on both backends: `sift serve` on a free
// port and the SDK's Streamable HTTP client, with grants and actor carried by a bearer token.
// On PostgreSQL it needs store.tokens there.

import {describeToolSuite} from '../mcp/tool-suite.js';
import {connectOverHttp, httpCallerFor} from './support.js';

describeToolSuite({name: 'HTTP', connect: connectOverHttp, callerFor: httpCallerFor, oneSession: false});
