#!/usr/bin/env node
import meow from 'meow';
import {StoreError} from '../store/index.js';
import type {Command, CliFlags} from './commands/context.js';
import {UsageError} from './commands/context.js';
import {ImportFileError} from './import/read-import-file.js';
import {describeRefusal} from './text/refusal.js';
import {safeJson, sanitize} from './text/sanitize.js';

const help = `
	Usage
	  sift [--db FILE] [--channel ID]          open the TUI
	  sift demo [--items N] [--seed S] [--reset] [--no-open]
	  sift import FILE
	  sift channels
	  sift list [--before ID] [--limit N] [--filter key=value]
	  sift show ITEM
	  sift edit ITEM key=value... [--expect-version N]
	  sift add key=value...
	  sift delete ITEM
	  sift events [--after N] [--limit N]
	  sift followups [dismiss ID]
	  sift mcp --grant CHANNEL [--actor agent] [--run ID]
	  sift run "INSTRUCTION" [--items ID,...] [--model M] [--timeout S]
	  sift runs
	  sift doctor
	  sift serve [--listen HOST:PORT] [--allow-host H]... [--rate N]
	  sift token create --grant CHANNEL[,...] [--actor agent|human] [--name N] [--expires 30d]
	  sift token list | sift token revoke NAME
	  sift run "INSTRUCTION" --server URL      the agent reaches the store through sift serve

	Options for every command
	  --db FILE         the database (default: $SIFT_DB, else $XDG_DATA_HOME/sift/sift.db)
	  --channel ID      the channel (default: the only one)
	  --json            print JSON

	Options for commands that launch Codex
	  --codex PATH            the codex binary (default: $SIFT_CODEX, codex on PATH, the local one)
	  --model M               the model
	  --codex-config K=V      passed to codex as -c K=V (repeatable)
	  --keep-api-env          keep CODEX_API_KEY / OPENAI_API_KEY / OPENAI_BASE_URL for codex

	Values given as key=value are read as JSON when they parse, else as text.
	Exit codes: 0 ok, 1 refused or failed, 2 usage error.
`;

/** Subcommands load on demand: the MCP server should not pay for React at start-up. */
const COMMANDS: Record<string, () => Promise<{default: Command}>> = {
	tui: async () => import('./commands/tui.js'),
	demo: async () => import('./commands/demo.js'),
	import: async () => import('./commands/import.js'),
	channels: async () => import('./commands/channels.js'),
	list: async () => import('./commands/list.js'),
	show: async () => import('./commands/show.js'),
	edit: async () => import('./commands/edit.js'),
	add: async () => import('./commands/add.js'),
	delete: async () => import('./commands/delete.js'),
	events: async () => import('./commands/events.js'),
	followups: async () => import('./commands/followups.js'),
	mcp: async () => import('./commands/mcp.js'),
	run: async () => import('./commands/run.js'),
	runs: async () => import('./commands/runs.js'),
	doctor: async () => import('./commands/doctor.js'),
	serve: async () => import('./commands/serve.js'),
	token: async () => import('./commands/token.js'),
};

function parseArguments() {
	return meow(help, {
		importMeta: import.meta,
		allowUnknownFlags: false,
		flags: {
			db: {type: 'string'},
			channel: {type: 'string'},
			json: {type: 'boolean', default: false},
			items: {type: 'string'},
			seed: {type: 'number'},
			reset: {type: 'boolean', default: false},
			open: {type: 'boolean', default: true},
			before: {type: 'string'},
			limit: {type: 'number'},
			filter: {type: 'string', isMultiple: true, default: []},
			after: {type: 'number'},
			expectVersion: {type: 'number'},
			grant: {type: 'string', isMultiple: true, default: []},
			actor: {type: 'string'},
			run: {type: 'string'},
			model: {type: 'string'},
			timeout: {type: 'number'},
			codex: {type: 'string'},
			codexConfig: {type: 'string', isMultiple: true, default: []},
			keepApiEnv: {type: 'boolean', default: false},
			// serve / token / run --server
			listen: {type: 'string'},
			allowHost: {type: 'string', isMultiple: true, default: []},
			rate: {type: 'number'},
			name: {type: 'string'},
			expires: {type: 'string'},
			server: {type: 'string'},
		},
	});
}

/** `--items` is a count for `demo` and a list of ids for `run`; the command decides. */
function flagsFor(name: string, raw: ReturnType<typeof parseArguments>['flags']): CliFlags {
	const {items, ...rest} = raw;
	if (name === 'demo' && items !== undefined) {
		const count = Number(items);
		if (!Number.isInteger(count)) {
			throw new UsageError(`--items must be a whole number for demo, got ${JSON.stringify(items)}`);
		}

		return {...rest, items: count};
	}

	return {...rest, itemIds: items === undefined ? undefined : items.split(',').map(id => id.trim()).filter(Boolean)};
}

function report(error: unknown, json: boolean): number {
	if (error instanceof UsageError) {
		process.stderr.write(`sift: ${sanitize(error.message)}\nRun \`sift --help\` for usage.\n`);
		return 2;
	}

	if (error instanceof StoreError) {
		if (json) {
			process.stdout.write(`${safeJson(error.body, 2)}\n`);
		} else {
			process.stderr.write(`sift: ${describeRefusal(error.body)}\n`);
		}

		return 1;
	}

	process.stderr.write(`sift: ${sanitize(error instanceof ImportFileError ? error.message : String((error as Error)?.message ?? error))}\n`);
	return 1;
}

async function main(): Promise<number> {
	const cli = parseArguments();
	const [first, ...rest] = cli.input;
	const name = first === undefined ? 'tui' : first;
	try {
		const load = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
		if (!load) {
			throw new UsageError(`unknown command ${JSON.stringify(name)}`);
		}

		const {default: command} = await load();
		return await command({input: rest, flags: flagsFor(name, cli.flags), stdout: process.stdout, stderr: process.stderr, env: process.env});
	} catch (error) {
		// The MCP server's stdout carries JSON-RPC only, so its refusals always go to stderr.
		return report(error, cli.flags.json && name !== 'mcp');
	}
}

process.exitCode = await main();
