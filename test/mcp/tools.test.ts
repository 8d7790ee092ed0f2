// The MCP tool suite (tool-suite.ts) in process, over the SDK's in-memory transport, on both backends.

import {callerFor, connectInProcess} from './fixtures.js';
import {describeToolSuite} from './tool-suite.js';

describeToolSuite({name: 'an in-process connection', connect: connectInProcess, callerFor, oneSession: true});
