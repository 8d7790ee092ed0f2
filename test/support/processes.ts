// Process checks for tests, read from `ps` (independently of sift's own /proc reading): is a
// process still running, which members of a process group are, and the pids a fake codex wrote.

import {execFileSync} from 'node:child_process';
import {readFileSync} from 'node:fs';

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

/** Running (a zombie has ended: only its exit status waits to be collected). */
export function isAlive(pid: number): boolean {
	return processes().some(process => process.pid === pid && running(process));
}

export function liveGroupMembers(group: number): number[] {
	return processes()
		.filter(process => process.group === group && running(process))
		.map(process => process.pid);
}

/** The pids listed one a line in `file` (none when it is not there yet). */
export function readPids(file: string): number[] {
	try {
		return readFileSync(file, 'utf8').split('\n').filter(Boolean).map(Number);
	} catch {
		return [];
	}
}
