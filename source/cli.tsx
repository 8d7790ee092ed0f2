#!/usr/bin/env node
// The entry: parses argv into a command and loads that command's module on demand; prints one-line
// errors.

import {readFileSync} from 'node:fs';
import {StoreError} from '../store/index.js';
import {commandName, commandOf, interpret, tokenize} from './commands/arguments.js';
import type {Command} from './commands/context.js';
import {UsageError} from './commands/context.js';
import {commandHelp, mainHelp} from './commands/help.js';
import {describeRefusal} from './text/refusal.js';
import {safeJson, sanitize} from './text/sanitize.js';

/** Subcommands load on demand: the MCP server should not pay for React at start-up. */
const COMMANDS: Record<string, () => Promise<{default: Command}>> = {
	tui: async () => import('./commands/tui.js'),
	demo: async () => import('./commands/demo.js'),
	import: async () => import('./commands/import.js'),
	channels: async () => import('./commands/channels.js'),
	list: async () => import('./commands/list.js'),
	export: async () => import('./commands/export.js'),
	channel: async () => import('./commands/channel.js'),
	show: async () => import('./commands/show.js'),
	edit: async () => import('./commands/edit.js'),
	add: async () => import('./commands/add.js'),
	delete: async () => import('./commands/delete.js'),
	events: async () => import('./commands/events.js'),
	followups: async () => import('./commands/followups.js'),
	mcp: async () => import('./commands/mcp.js'),
	run: async () => import('./commands/run.js'),
	watch: async () => import('./commands/watch.js'),
	runs: async () => import('./commands/runs.js'),
	proposals: async () => import('./commands/proposals.js'),
	doctor: async () => import('./commands/doctor.js'),
	serve: async () => import('./commands/serve.js'),
	token: async () => import('./commands/token.js'),
	migrate: async () => import('./commands/migrate.js'),
	sync: async () => import('./commands/sync.js'),
	eval: async () => import('./commands/eval.js'),
};

const debugging = () => process.env.SIFT_DEBUG === '1';

function version(): string {
	const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {version: string};
	return manifest.version;
}

/** Every failure is one `sift:` line on stderr, with the fix when there is one. */
async function report(error: unknown, command: string, json: boolean): Promise<number> {
	if (debugging() && error instanceof Error) process.stderr.write(`${error.stack ?? ''}\n`);
	if (error instanceof UsageError) {
		const help = Object.hasOwn(COMMANDS, command) ? `${commandName(command)} --help` : 'sift --help';
		process.stderr.write(`sift: ${sanitize(error.message)}; see \`${help}\`\n`);
		return 2;
	}

	if (error instanceof StoreError) {
		if (json) process.stdout.write(`${safeJson(error.body, 2)}\n`);
		process.stderr.write(`sift: ${describeRefusal(error.body, 'line')}\n`);
		return 1;
	}

	const message = (error instanceof Error ? error.message : String(error)).trim().replaceAll(/\s*\n\s*/g, '; ');
	// Errors that mark themselves `expected` already say what went wrong and how to fix it.
	// The import reader loads only for a failure: the TUI's start does not pay for it.
	const {ImportFileError} = await import('./import/read-import-file.js');
	const expected = error instanceof ImportFileError || (error as {expected?: unknown})?.expected === true || debugging();
	process.stderr.write(`sift: ${sanitize(message)}${expected ? '' : ' (SIFT_DEBUG=1 shows where)'}\n`);
	return 1;
}

async function main(argv: string[]): Promise<number> {
	const tokens = tokenize(argv);
	const command = commandOf(tokens);
	const json = tokens.some(token => token.kind === 'option' && token.name === 'json');
	try {
		const invocation = interpret(tokens, command);
		if (invocation.kind === 'version') {
			process.stdout.write(`${version()}\n`);
			return 0;
		}

		if (invocation.kind === 'help') {
			process.stdout.write(invocation.command === undefined ? mainHelp() : commandHelp(invocation.command));
			return 0;
		}

		const {default: run} = await COMMANDS[invocation.command]!();
		return await run({input: invocation.input, flags: invocation.flags, stdout: process.stdout, stderr: process.stderr, env: process.env});
	} catch (error) {
		// The MCP server's stdout carries JSON-RPC only, so its refusals always go to stderr.
		return await report(error, command, json && command !== 'mcp');
	}
}

// A reader that stops early (`sift list --all --json | head`) ends the output, not in a crash.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
	if (error.code !== 'EPIPE') throw error;
	process.exit(process.exitCode ?? 0);
});

// A promise, not a top-level await: the bundle is CommonJS, loaded through a compile cache (docs/architecture.md#start-up).
void main(process.argv.slice(2)).then(code => {
	process.exitCode = code;
});
