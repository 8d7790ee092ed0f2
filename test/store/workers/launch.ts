// Starts the writer process of test/store/workers/editor.ts, for the multi-process tests (run from
// the TypeScript sources: the worker is bundled once with esbuild so plain node starts it quickly)
// and for the benches (run from dist/, where tsc already compiled it next to this file).

import {spawn} from 'node:child_process';
import {existsSync, renameSync} from 'node:fs';
import {fileURLToPath} from 'node:url';

export type EditorExit = {code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string};
export type EditorControl = {kill(): void; go(): void; stdout(): string};

export type IncrementReport = {worker: string; edits: number; conflicts: number; started: number; ended: number; latencies_ms: number[]};

let ready: Promise<string> | undefined;

/** The runnable worker: dist's compiled sibling, or a bundle of the source made once per process. */
function workerPath(): Promise<string> {
	ready ??= (async () => {
		const here = fileURLToPath(import.meta.url);
		if (here.endsWith('.js')) {
			return fileURLToPath(new URL('editor.js', import.meta.url));
		}

		const root = fileURLToPath(new URL('../../..', import.meta.url));
		// Under dist/, so its packages resolve from the checkout's node_modules.
		const outfile = `${root}dist/test/store/workers/editor.mjs`;
		// Test files run in parallel bundle it at once: each writes its own file and renames it into
		// place, so a worker never starts from a half-written bundle.
		const building = `${outfile}.${process.pid}`;
		const {build} = await import('esbuild');
		await build({entryPoints: [fileURLToPath(new URL('editor.ts', import.meta.url))], outfile: building, bundle: true, platform: 'node', format: 'esm', packages: 'external', logLevel: 'error'});
		if (!existsSync(building)) throw new Error(`could not bundle the editor worker to ${building}`);
		renameSync(building, outfile);
		return outfile;
	})();
	return ready;
}

/** Runs the worker with `args`; `onReady` gets control of it once it printed "ready". */
export async function runEditor(args: string[], onReady?: (control: EditorControl) => void): Promise<EditorExit> {
	const worker = await workerPath();
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, [worker, ...args], {stdio: ['pipe', 'pipe', 'pipe']});
		let stdout = '';
		let stderr = '';
		child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
			const wasReady = stdout.includes('ready\n');
			stdout += chunk;
			if (!wasReady && stdout.includes('ready\n')) {
				onReady?.({kill: () => child.kill('SIGKILL'), go: () => child.stdin.end('go\n'), stdout: () => stdout});
			}
		});
		child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
			stderr += chunk;
		});
		child.on('error', reject);
		child.on('close', (code, signal) => resolve({code, signal, stdout, stderr}));
	});
}

/**
 * `workers` increment writers that start together once every one has its store open; resolves
 * with their reports (a writer that failed rejects, with what it printed).
 */
export async function raceIncrements(location: string, ids: string[], workers: number, edits: number, seconds?: number): Promise<IncrementReport[]> {
	const controls: EditorControl[] = [];
	let going = false;
	let failed = false;
	const exits = await Promise.all(Array.from({length: workers}, async (_, index) => {
		const exit = await runEditor(
			['increment', location, String(index), String(edits), ids.join(','), ...(seconds === undefined ? [] : [String(seconds)])],
			control => {
				if (failed) {
					control.kill();
					return;
				}

				controls.push(control);
				if (controls.length === workers) {
					going = true;
					for (const each of controls) each.go();
				}
			},
		);
		// One that died before the start would leave the others waiting for it: stop them.
		if (!going) {
			failed = true;
			for (const each of controls) each.kill();
		}

		return exit;
	}));
	return exits.map(exit => {
		if (exit.code !== 0 || exit.stderr !== '') {
			throw new Error(`an editor failed (exit ${exit.code ?? exit.signal}): ${exit.stdout}${exit.stderr}`);
		}

		return JSON.parse(exit.stdout.trim().split('\n').at(-1)!) as IncrementReport;
	});
}
