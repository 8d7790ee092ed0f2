// Process groups of runs in flight; kills them on any exit path.

import {readFileSync, readdirSync} from 'node:fs';

/** Groups of runs in flight, killed if sift itself exits mid-run, on any exit path. */
const liveGroups = new Set<number>();
process.once('exit', () => killAllGroups());

/** SIGKILL to every run group in flight, at once: for when sift itself must go now. */
export function killAllGroups(): void {
	for (const group of liveGroups) signalGroup(group, 'SIGKILL');
}

export const TERMINATION_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
export type TerminationSignal = (typeof TERMINATION_SIGNALS)[number];
const SIGNAL_NUMBERS: Record<TerminationSignal, number> = {SIGHUP: 1, SIGINT: 2, SIGTERM: 15};

/** If stopping after a signal takes longer than this, sift exits anyway (its groups are killed on exit). */
const FORCED_EXIT_MS = 8000;

/**
 * While installed, SIGINT, SIGTERM and SIGHUP (the terminal closed) stop sift's runs instead of
 * ending sift with its Codex still running. SIGINT is the person's Ctrl+C: `stop` cancels the run
 * the usual way. SIGTERM and SIGHUP mean sift must go now: every run group is killed before `stop`
 * is called. Should stopping hang, sift exits with 128 + the signal's number regardless.
 * Returns the uninstaller.
 */
export function handleTerminationSignals(stop: (signal: TerminationSignal) => void): () => void {
	const handler = (signal: TerminationSignal) => {
		if (signal !== 'SIGINT') killAllGroups();
		setTimeout(() => process.exit(128 + SIGNAL_NUMBERS[signal]), FORCED_EXIT_MS).unref();
		stop(signal);
	};

	for (const signal of TERMINATION_SIGNALS) process.on(signal, handler);
	return () => {
		for (const signal of TERMINATION_SIGNALS) process.off(signal, handler);
	};
}

export function exitCodeOfSignal(signal: TerminationSignal): number {
	return 128 + SIGNAL_NUMBERS[signal];
}

/** Whether a process exists (a process of another user counts: EPERM). */
export function isProcessAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
}

/**
 * Kills what is left of an abandoned run: SIGKILL to its group if a member still runs. The group
 * id is Codex's pid. While Codex (the leader) lives, its command line must name the run, so a
 * group id reused since is left alone (on Linux, where that can be read); once the leader is gone
 * the id cannot be reused while members are left, so they are the run's.
 * True when the group was signalled.
 */
export function killAbandonedGroup(group: number, runId: string): boolean {
	if (!groupIsRunning(group)) return false;
	const leader = String(group);
	if (process.platform === 'linux' && isRunningMember(leader, group) && !commandLineOf(leader).includes(runId)) return false;
	return signalGroup(group, 'SIGKILL');
}

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
export function groupIsRunning(group: number): boolean {
	if (!signalGroup(group, 0)) return false;
	if (process.platform !== 'linux') return true;
	return liveMembers(group).length > 0;
}

function liveMembers(group: number): string[] {
	return readdirSync('/proc').filter(name => /^\d+$/.test(name) && isRunningMember(name, group));
}

function commandLineOf(pid: string): string {
	try {
		return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
	} catch {
		return '';
	}
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
