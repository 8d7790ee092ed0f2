#!/usr/bin/env node
// A stand-in for the `codex` CLI: same command line, a scripted `exec --json` stream.
// The event shapes are those of codex-rs/exec/src/exec_events.rs (codex 0.171).
//
// FAKE_CODEX_MODE      normal | slow | hang | crash-before-answer | crash-after-answer | auth |
//                      stderr-flood | noise | reconnecting | grandchild | mcp-startup-failure |
//                      many-steps (60 read_record_item steps, then as normal) |
//                      mcp-hang (starts the sift MCP server of its -c, then hangs like hang) |
//                      echo-store (repeats the store location it was given, SIFT_MCP_DB, in an error
//                      event, its answer, a failed turn and stderr: as a Codex that echoes a server's failure)
// FAKE_CODEX_EDIT      mcp-hang: the edit_record_item arguments (JSON) to send once FAKE_CODEX_EDIT_TRIGGER
//                      exists; the server's answer (or "closed") is written to FAKE_CODEX_EDIT_RESULT
// FAKE_CODEX_DELAY_MS  pause before each stdout line (default 2; slow mode 150)
// FAKE_CODEX_TOOL_DELAY_MS  pause before each tool call completes, as a tool that takes that long (default 0)
// FAKE_CODEX_ANSWER_GATE  a file: the answer (the agent message) is written only once it exists, so a
//                      test holds the run mid-way, sees what came before, and lets it go (or cancels it)
// FAKE_CODEX_STEP_GATE  a file: each tool call completes only once it exists, so a test sees a step
//                      still running (its spinner), does what it wants meanwhile, and lets the run go on
// FAKE_CODEX_MODE_BY_ITEM  JSON {"<item id>": mode}: a run whose prompt names that item plays that
//                      mode instead of FAKE_CODEX_MODE (the first id of the map named in the prompt wins)
// FAKE_CODEX_PIDFILE   append this process's pid, and any grandchild's, one per line
// FAKE_CODEX_ARGS_FILE write {argv, cwd, cwd_entries, stdin, env_keys, store_location} as JSON (store_location: $SIFT_MCP_DB)
// FAKE_CODEX_CALLS     append one line per invocation (to count probes)
// FAKE_CODEX_TIMELINE  append {mark, at, pid} (epoch ms, sub-ms) at start, and when the first step and the answer are written
// FAKE_CODEX_HELP      "old": `exec --help` does not list --ignore-rules, --ephemeral, --strict-config
// FAKE_CODEX_FEATURES  "old": no `features` command, as a Codex from before tools could be switched off
//                      (else `features list` answers like 0.171 for the features sift switches, and
//                      refuses a wrongly typed web_search or tools.experimental_request_user_input)
// FAKE_CODEX_LOGGED_IN "0": `login status` says "Not logged in" and exits 1; "api-key": logged in
//                      only while OPENAI_API_KEY is in its environment
//
// stdout and stderr are written with blocking writeSync, so a reader that does not drain a pipe
// really blocks this process, as it would block Codex.
import {appendFileSync, existsSync, fstatSync, readdirSync, writeFileSync, writeSync} from 'node:fs';
import {spawn} from 'node:child_process';

const argv = process.argv.slice(2);
const env = process.env;

if (env.FAKE_CODEX_CALLS) appendFileSync(env.FAKE_CODEX_CALLS, JSON.stringify(argv) + '\n');

const HELP = `Run Codex non-interactively

Usage: codex exec [OPTIONS] [PROMPT]

Options:
  -c, --config <key=value>
  -m, --model <MODEL>
  -s, --sandbox <SANDBOX_MODE>
      --skip-git-repo-check
      --ignore-user-config
${env.FAKE_CODEX_HELP === 'old' ? '' : '      --ignore-rules\n          Do not load user or project execpolicy `.rules` files\n      --ephemeral\n      --strict-config\n'}      --json
  -o, --output-last-message <FILE>
  -h, --help
`;

const now = () => performance.timeOrigin + performance.now();
const sleep = ms => new Promise(resolve => setTimeout(resolve, ms));
const out = text => writeSync(1, text + '\n');
const err = text => writeSync(2, text + '\n');

async function main() {
	if (argv[0] === '--version' || argv[0] === '-V') return exitWith(0, out, 'codex-cli 0.171.0-fake');
	if (argv[0] === 'login' && argv[1] === 'status') {
		if (env.FAKE_CODEX_LOGGED_IN === '0') return exitWith(1, err, 'Not logged in');
		if (env.FAKE_CODEX_LOGGED_IN === 'api-key') return env.OPENAI_API_KEY ? exitWith(0, err, 'Logged in using an API key') : exitWith(1, err, 'Not logged in');
		return exitWith(0, err, 'Logged in using ChatGPT');
	}
	if (argv[0] === 'features' && env.FAKE_CODEX_FEATURES !== 'old') return featuresList(argv.slice(1));
	if (argv[0] !== 'exec') return exitWith(2, err, `error: unrecognized subcommand '${argv[0] ?? ''}'`);
	const flags = argv.includes('--') ? argv.slice(0, argv.indexOf('--')) : argv;
	if (flags.includes('--help') || flags.includes('-h')) return exitWith(0, out, HELP);
	const options = parseExec(argv.slice(1));
	if (!options.json) return exitWith(2, err, 'fake codex: only --json output is scripted');
	if (options.prompt === undefined) return exitWith(2, err, 'fake codex: no prompt after --');
	mark('started');
	if (env.FAKE_CODEX_PIDFILE) appendFileSync(env.FAKE_CODEX_PIDFILE, `${process.pid}\n`);
	if (env.FAKE_CODEX_ARGS_FILE) writeArgsFile(options);
	// Like Codex: with a prompt argument and a piped stdin, stdin is read to its end first.
	if (stdinKind() === 'pipe') await readStdinToEnd();
	const mode = modeFor(options.prompt);
	const script = SCRIPTS[mode];
	if (!script) return exitWith(2, err, `fake codex: unknown FAKE_CODEX_MODE ${mode}`);
	const delay = Number(env.FAKE_CODEX_DELAY_MS ?? (mode === 'slow' ? 150 : 2));
	await script({options, emit: line => emitLine(line, delay)});
}

// name, stage, default state: the rows of codex 0.171's `features list` that sift switches.
const FEATURES = [
	['apps', 'stable', true], ['browser_use', 'stable', true], ['computer_use', 'stable', true], ['goals', 'stable', true],
	['image_generation', 'stable', true], ['js_repl', 'removed', false], ['memories', 'stable', false], ['multi_agent', 'deprecated', true],
	['multi_agent_v2', 'stable', false], ['plugins', 'stable', true], ['send_message_to_user_async', 'under development', false], ['shell_tool', 'stable', true], ['sleep_tool', 'stable', true],
	['unified_exec', 'stable', true], ['view_image', 'stable', true], ['web_search_request', 'deprecated', false],
];
const WRONG_TYPES = new Set(['web_search=false', 'tools.experimental_request_user_input=false']);

function featuresList(args) {
	if (args[0] !== 'list') return exitWith(2, err, `error: unrecognized subcommand '${args[0] ?? ''}'`);
	const overrides = args.filter((_, index) => args[index - 1] === '-c');
	if (overrides.some(pair => WRONG_TYPES.has(pair))) return exitWith(1, err, 'Error: failed to load bootstrap configuration');
	const rows = FEATURES.map(([name, stage, on]) => {
		const set = overrides.find(pair => pair.startsWith(`features.${name}=`));
		return `${name.padEnd(41)}${stage.padEnd(19)}${set ? set.endsWith('=true') : on}`;
	});
	return exitWith(0, out, rows.join('\n'));
}

function modeFor(prompt) {
	const byItem = env.FAKE_CODEX_MODE_BY_ITEM ? Object.entries(JSON.parse(env.FAKE_CODEX_MODE_BY_ITEM)) : [];
	const named = byItem.find(([id]) => prompt.includes(id));
	return named ? named[1] : (env.FAKE_CODEX_MODE ?? 'normal');
}

function parseExec(args) {
	const options = {json: false, config: [], model: undefined, lastMessageFile: undefined, prompt: undefined, channel: 'bugs'};
	for (let index = 0; index < args.length; index++) {
		const arg = args[index];
		if (arg === '--') {
			options.prompt = args[index + 1];
			break;
		}
		if (arg === '--json') options.json = true;
		else if (arg === '-c' || arg === '--config') options.config.push(args[++index]);
		else if (arg === '-m' || arg === '--model') options.model = args[++index];
		else if (arg === '-o' || arg === '--output-last-message') options.lastMessageFile = args[++index];
		else if (arg === '-s' || arg === '--sandbox') index++;
	}
	const server = options.config.find(value => value.startsWith('mcp_servers.sift='));
	const grant = server?.match(/"--grant", "([^"]+)"/);
	if (grant) options.channel = grant[1];
	return options;
}

function writeArgsFile(options) {
	writeFileSync(
		env.FAKE_CODEX_ARGS_FILE,
		JSON.stringify({argv, prompt: options.prompt, cwd: process.cwd(), cwd_entries: readdirSync(process.cwd()), stdin: stdinKind(), env_keys: Object.keys(env), store_location: env.SIFT_MCP_DB ?? null}),
	);
}

function stdinKind() {
	try {
		const stat = fstatSync(0);
		if (stat.isFIFO() || stat.isSocket()) return 'pipe';
		return stat.isCharacterDevice() ? 'character-device' : 'file';
	} catch {
		return 'closed';
	}
}

function readStdinToEnd() {
	return new Promise(resolve => {
		process.stdin.on('data', () => undefined);
		process.stdin.on('end', resolve);
	});
}

const marked = new Set();
function mark(name) {
	if (marked.has(name) || !env.FAKE_CODEX_TIMELINE) return;
	marked.add(name);
	appendFileSync(env.FAKE_CODEX_TIMELINE, JSON.stringify({mark: name, at: now(), pid: process.pid}) + '\n');
}

const toolDelay = Number(env.FAKE_CODEX_TOOL_DELAY_MS ?? 0);

/** Resolves once `file` exists (a test's signal), looking every 20 ms. */
async function untilExists(file) {
	while (!existsSync(file)) await sleep(20);
}

async function emitLine(line, delay) {
	if (delay > 0) await sleep(delay);
	if (env.FAKE_CODEX_ANSWER_GATE && typeof line === 'object' && line.item?.type === 'agent_message') await untilExists(env.FAKE_CODEX_ANSWER_GATE);
	if (env.FAKE_CODEX_STEP_GATE && typeof line === 'object' && line.type === 'item.completed' && line.item?.type === 'mcp_tool_call') await untilExists(env.FAKE_CODEX_STEP_GATE);
	if (toolDelay > 0 && typeof line === 'object' && line.type === 'item.completed' && line.item?.type === 'mcp_tool_call') await sleep(toolDelay);
	const text = typeof line === 'string' ? line : JSON.stringify(line);
	if (typeof line === 'object' && line.type?.startsWith('item.') && line.item?.type !== 'agent_message') mark('first_step');
	if (typeof line === 'object' && line.item?.type === 'agent_message') mark('answer');
	out(text);
}

function exitWith(code, write, message) {
	write(message);
	process.exit(code);
}

// ---- the scripted stream ------------------------------------------------------------------

const THREAD = '0199a213-81c0-7800-8aa1-bbab2a035a53';
const ANSWER =
	'Set BUG-0042 to in_progress for aiko. Could not set BUG-0043: points 20 is above the maximum of 13, and due "Friday" is not a date; both are left as follow-ups. BUG-0044 changed while I worked (version conflict), so I left it.';
const USAGE = {input_tokens: 5120, cached_input_tokens: 1024, output_tokens: 312};

const text = value => ({content: [{type: 'text', text: JSON.stringify(value)}], structured_content: null});

function toolCall(id, tool, args, outcome) {
	const item = {id, type: 'mcp_tool_call', server: 'sift', tool, arguments: args, result: null, error: null, status: 'in_progress'};
	const completed = outcome.error
		? {...item, error: {message: outcome.error}, status: 'failed'}
		: {...item, result: text(outcome.body), status: outcome.isError ? 'failed' : 'completed'};
	return [
		{type: 'item.started', item},
		{type: 'item.completed', item: completed},
	];
}

function triage(channel) {
	const listed = {
		schema: [{key: 'ticket', type: 'text'}],
		items: ['0042', '0043', '0044'].map(n => ({id: `itm_${n}`, version: 2, updated_at: '2025-01-02T03:04:05Z', preview: {ticket: `BUG-${n}`, status: 'new'}})),
		next_before_id: null,
		latest_sequence: 10,
	};
	const edit = (n, values) => ({record_channel_id: channel, item_id: `itm_${n}`, values, expected_version: 2, idempotency_key: `k-${n}`});
	return [
		{type: 'item.completed', item: {id: 'item_0', type: 'reasoning', text: '**Listing the channel**'}},
		...toolCall('item_1', 'list_record_items', {record_channel_id: channel, limit: 50}, {body: listed}),
		...toolCall('item_2', 'edit_record_item', edit('0042', {status: 'in_progress', owner: 'aiko'}), {
			body: {ok: true, item_id: 'itm_0042', version: 3, sequence: 11, changed: {status: 'in_progress', owner: 'aiko'}},
		}),
		...toolCall('item_3', 'edit_record_item', edit('0043', {points: 20, due: 'Friday'}), {
			isError: true,
			body: {
				error: 'validation_failed',
				fields: [
					{key: 'points', message: 'values.points must be between 0 and 13, got 20', min: 0, max: 13},
					{key: 'due', message: 'values.due must be a date as YYYY-MM-DD, got "Friday"'},
				],
				follow_ups: ['points', 'due'],
			},
		}),
		...toolCall('item_4', 'edit_record_item', edit('0044', {severity: 's2'}), {
			isError: true,
			body: {error: 'version_conflict', current_version: 3, changed_since: {status: {from: 'new', to: 'triaged'}}},
		}),
	];
}

const opening = [
	{type: 'thread.started', thread_id: THREAD},
	{type: 'turn.started'},
];
const answer = {type: 'item.completed', item: {id: 'item_5', type: 'agent_message', text: ANSWER}};
const turnCompleted = {type: 'turn.completed', usage: USAGE};

async function play(emit, lines) {
	for (const line of lines) await emit(line);
}

async function succeed({options, emit}, extra = {}) {
	await play(emit, [...opening, ...(extra.beforeTriage ?? []), ...triage(options.channel), answer, turnCompleted]);
	if (options.lastMessageFile) writeFileSync(options.lastMessageFile, ANSWER);
	process.exit(0);
}

function panic(where) {
	err(`thread 'main' panicked at codex-rs/exec/src/lib.rs:417:9:\n${where}\nnote: run with \`RUST_BACKTRACE=1\` environment variable to display a backtrace`);
	process.exit(101);
}

const SCRIPTS = {
	normal: succeed,
	slow: succeed,
	async hang({options, emit}) {
		// Ignores SIGTERM, so only the group SIGKILL ends it.
		process.on('SIGTERM', () => undefined);
		await play(emit, [...opening, ...triage(options.channel).slice(0, 2)]);
		setInterval(() => undefined, 1000);
	},
	async 'mcp-hang'({options, emit}) {
		process.on('SIGTERM', () => undefined);
		const server = await startMcpServer(options);
		await play(emit, [...opening, ...triage(options.channel).slice(0, 2)]);
		if (!env.FAKE_CODEX_EDIT) return setInterval(() => undefined, 1000);
		await untilExists(env.FAKE_CODEX_EDIT_TRIGGER);
		const answer = await server.request('tools/call', {name: 'edit_record_item', arguments: JSON.parse(env.FAKE_CODEX_EDIT)});
		writeFileSync(env.FAKE_CODEX_EDIT_RESULT, answer === undefined ? 'closed' : JSON.stringify(answer));
		setInterval(() => undefined, 1000);
	},
	async 'crash-before-answer'({options, emit}) {
		await play(emit, [...opening, ...triage(options.channel).slice(0, 4)]);
		panic('fake crash before the answer');
	},
	async 'crash-after-answer'({options, emit}) {
		await play(emit, [...opening, ...triage(options.channel), answer]);
		panic('fake crash after the answer');
	},
	async 'echo-store'({emit}) {
		const message = `MCP server sift failed: could not open ${env.SIFT_MCP_DB}`;
		err(message);
		await play(emit, [...opening, {type: 'error', message}, {type: 'item.completed', item: {id: 'item_9', type: 'agent_message', text: message}}, {type: 'turn.failed', error: {message}}]);
		process.exit(1);
	},
	async auth({emit}) {
		const message = 'unexpected status 401 Unauthorized: Missing bearer or basic authentication in header';
		await play(emit, [...opening, {type: 'error', message}, {type: 'turn.failed', error: {message}}]);
		process.exit(1);
	},
	async 'stderr-flood'(context) {
		const chunk = 'x'.repeat(1023) + '\n';
		for (let index = 0; index < 200; index++) writeSync(2, chunk);
		err('flood-end');
		await succeed(context);
	},
	// Sixty reads before the usual triage: a run with more steps than a screen holds.
	async 'many-steps'(context) {
		const reads = Array.from({length: 60}, (_, index) => toolCall(`item_read_${index}`, 'read_record_item', {record_channel_id: context.options.channel, item_id: `itm_${String(index + 1).padStart(4, '0')}`}, {body: {ok: true}})).flat();
		await succeed(context, {beforeTriage: reads});
	},
	async noise(context) {
		await succeed(context, {
			beforeTriage: [
				'Reading prompt from stdin... not really',
				'',
				'{"type": "session.configured", "model": "gpt-5"}',
				'[1, 2, 3]',
				'{"type":"item.started","item":{"id":"item_x","type":"hologram","status":"in_progress"}}',
				'{"type":"item.plan.delta","item_id":"item_p","delta":"1. list"}',
				'{"type":"item.completed","item":{"id":"item_w","type":"error","message":"model rerouted to a smaller model"}}',
				'{"type":"item.completed","item":',
				'\u001b[31mnot json either\u001b[0m',
			],
		});
	},
	async reconnecting(context) {
		await succeed(context, {
			beforeTriage: [
				{type: 'error', message: 'Reconnecting... 1/5 (stream disconnected before completion: error sending request)'},
				{type: 'error', message: 'Reconnecting... 2/5 (stream disconnected before completion: error sending request)'},
			],
		});
	},
	async grandchild(context) {
		// Holds our stdout open long after we are gone, as a leaked tool process would.
		const sleeper = spawn('sleep', ['30'], {stdio: ['ignore', 'inherit', 'ignore']});
		sleeper.unref();
		if (env.FAKE_CODEX_PIDFILE) appendFileSync(env.FAKE_CODEX_PIDFILE, `${sleeper.pid}\n`);
		await succeed(context);
	},
	async 'mcp-startup-failure'() {
		// What codex 0.171 prints when a required server cannot start, before any event.
		const reason = 'required MCP servers failed to initialize: sift: handshaking with MCP server failed: connection closed: initialize response';
		err('Reading additional input from stdin...');
		err(`2025-01-02T03:04:05.000000Z ERROR codex_core::session: Failed to create session: ${reason}`);
		err(`Error: thread/start: thread/start failed: error creating thread: Fatal error: Failed to initialize session: ${reason} (code -32603)`);
		err('\nStack backtrace:\n   0: <unknown>\n   1: <unknown>');
		process.exit(1);
	},
};

/** Starts the server of `-c mcp_servers.sift={command=..., args=[...]}` as Codex does, and says hello. */
async function startMcpServer(options) {
	const server = options.config.find(value => value.startsWith('mcp_servers.sift='));
	// TOML basic strings as the runner writes them are also JSON strings.
	const command = JSON.parse(server.match(/command=("(?:[^"\\]|\\.)*")/)[1]);
	const args = JSON.parse(server.match(/args=(\[.*?\]), required/)[1]);
	const child = spawn(command, args, {stdio: ['pipe', 'pipe', 'ignore']});
	if (env.FAKE_CODEX_PIDFILE) appendFileSync(env.FAKE_CODEX_PIDFILE, `${child.pid}\n`);
	const waiting = new Map();
	let buffered = '';
	let nextId = 1;
	child.stdout.on('data', chunk => {
		buffered += chunk.toString();
		for (let end = buffered.indexOf('\n'); end !== -1; end = buffered.indexOf('\n')) {
			const message = JSON.parse(buffered.slice(0, end));
			buffered = buffered.slice(end + 1);
			waiting.get(message.id)?.(message);
		}
	});
	child.stdout.on('close', () => {
		for (const resolve of waiting.values()) resolve(undefined);
	});
	child.stdin.on('error', () => undefined);
	const send = message => child.stdin.write(JSON.stringify({jsonrpc: '2.0', ...message}) + '\n');
	const request = (method, params) => new Promise(resolve => {
		const id = nextId++;
		waiting.set(id, resolve);
		send({id, method, params});
	});
	await request('initialize', {protocolVersion: '2025-06-18', capabilities: {}, clientInfo: {name: 'fake-codex', version: '0'}});
	send({method: 'notifications/initialized'});
	return {request};
}

await main();
