import {execFileSync} from 'node:child_process';
import {readFileSync} from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {tempDir as kitTempDir} from '../support/temp.js';

export const FAKE_CODEX = fileURLToPath(new URL('../support/fake-codex.mjs', import.meta.url));

/** A temp dir (test/support/temp.ts: removed after the test file). */
export const tempDir = (prefix = 'sift-codex-') => kitTempDir(prefix);

type Process = {pid: number; group: number; state: string};

/** Every process as `ps` sees it: checked independently of the runner's own /proc reading. */
function processes(): Process[] {
	return execFileSync('ps', ['-eo', 'pid=,pgid=,stat='], {encoding: 'utf8'})
		.split('\n')
		.filter(line => line.trim())
		.map(line => {
			const [pid, group, state] = line.trim().split(/\s+/);
			return {pid: Number(pid), group: Number(group), state: state!};
		});
}

/** A zombie has ended; only its exit status waits to be collected. */
const running = (process: Process) => !process.state.startsWith('Z');

export function isAlive(pid: number): boolean {
	return processes().some(process => process.pid === pid && running(process));
}

export function liveGroupMembers(group: number): number[] {
	return processes()
		.filter(process => process.group === group && running(process))
		.map(process => process.pid);
}

export function readPids(file: string): number[] {
	try {
		return readFileSync(file, 'utf8').split('\n').filter(Boolean).map(Number);
	} catch {
		return [];
	}
}
