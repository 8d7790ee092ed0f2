import {existsSync} from 'node:fs';
import {render} from 'ink';
import {openStore, StoreError} from '../../store/index.js';
import {App} from '../ui/app.js';
import {makeTheme} from '../ui/theme.js';
import {databasePath} from './common.js';
import type {Command} from './context.js';

/**
 * `sift [--db FILE] [--channel ID]`: the Ink TUI. Resolves when the person quits; any Codex run
 * still going is cancelled (its whole process group) before the promise resolves.
 */
const tui: Command = async context => {
	const dbPath = databasePath(context);
	if (!existsSync(dbPath)) {
		context.stderr.write(`sift: no database at ${dbPath}; start the demo with \`sift demo\`, or import a channel with \`sift import FILE --db ${dbPath}\`\n`);
		return 1;
	}

	const stdin = process.stdin;
	if (!stdin.isTTY) {
		context.stderr.write('sift: the TUI needs a terminal (stdin is not a TTY); use the subcommands (sift list, sift edit, ...) in scripts\n');
		return 2;
	}

	let store;
	try {
		store = openStore(dbPath);
	} catch (error) {
		context.stderr.write(`sift: cannot open ${dbPath}: ${(error as Error).message}\n`);
		return 1;
	}

	try {
		if (context.flags.channel !== undefined) {
			try {
				store.getChannel(context.flags.channel);
			} catch (error) {
				context.stderr.write(`sift: ${error instanceof StoreError ? error.message : String(error)}\n`);
				return 1;
			}
		}

		const instance = render(
			<App
				store={store}
				dbPath={dbPath}
				channelId={context.flags.channel}
				theme={makeTheme(context.env)}
				run={{codex: context.flags.codex, model: context.flags.model, codexConfig: context.flags.codexConfig, keepApiEnv: context.flags.keepApiEnv, env: context.env, timeoutMs: context.flags.timeout === undefined ? undefined : context.flags.timeout * 1000}}
			/>,
			{exitOnCtrlC: false, patchConsole: true, maxFps: 60},
		);
		await instance.waitUntilExit();
		return 0;
	} finally {
		store.close();
	}
};

export default tui;
