import {readFileSync, readdirSync} from 'node:fs';

/** Groups of runs in flight, killed if sift itself exits mid-run. */
const liveGroups = new Set<number>();
process.once('exit', () => {
	for (const group of liveGroups) signalGroup(group, 'SIGKILL');
});

export function trackGroup(group: number): void {
	liveGroups.add(group);
}

export function untrackGroup(group: number): void {
	liveGroups.delete(group);
}

/**
 * SIGTERM to the whole group, up to graceMs for the child to go, then SIGKILL to the group
 * regardless (a grandchild may ignore SIGTERM), then up to graceMs more until no process of
 * the group is left running: nothing of the run may outlive it.
 */
export async function terminateGroup(group: number, exited: Promise<unknown>, graceMs: number): Promise<void> {
	signalGroup(group, 'SIGTERM');
	await within(exited, graceMs);
	signalGroup(group, 'SIGKILL');
	await within(exited, graceMs);
	const giveUpAt = Date.now() + graceMs;
	while (groupIsRunning(group) && Date.now() < giveUpAt) await new Promise(resolve => setTimeout(resolve, 10));
}

/** Sends the signal to every process of the group; false once the group no longer exists. */
function signalGroup(group: number, signal: NodeJS.Signals | 0): boolean {
	try {
		process.kill(-group, signal);
		return true;
	} catch {
		return false;
	}
}

/**
 * Whether any process of the group still runs. On Linux a killed orphan stays a zombie until
 * init reaps it, which can take a while and keeps the group "existing", so zombies are skipped.
 */
function groupIsRunning(group: number): boolean {
	if (!signalGroup(group, 0)) return false;
	if (process.platform !== 'linux') return true;
	return readdirSync('/proc').some(name => /^\d+$/.test(name) && isRunningMember(name, group));
}

function isRunningMember(pid: string, group: number): boolean {
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
		// After "pid (command) ": state, ppid, pgrp, ...; the command may contain spaces or parentheses.
		const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
		return Number(pgrp) === group && state !== 'Z' && state !== 'X';
	} catch {
		return false;
	}
}

/** Waits for the promise, but at most ms; the timer is cleared so it never holds the process open. */
export async function within(promise: Promise<unknown>, ms: number): Promise<void> {
	let timer: NodeJS.Timeout | undefined;
	try {
		await Promise.race([promise, new Promise(resolve => (timer = setTimeout(resolve, ms)))]);
	} finally {
		clearTimeout(timer);
	}
}
