// Starts a run's watchdog process and stops it when the run ends.

import {spawn} from 'node:child_process';
import {existsSync} from 'node:fs';
import {watchdogScript} from './paths.js';

/**
 * Starts the watchdog of a run's process group: a small detached process that kills the group if
 * this sift dies without ending the run (SIGKILL, which no handler sees). Returns a stop function
 * for the normal end of the run. Without a build (no script) the reaping at the next start remains.
 */
export function startWatchdog(group: number, ownerPid = process.pid): () => void {
	const script = watchdogScript();
	if (!existsSync(script)) return () => undefined;
	// Its own process group: a signal to sift's group (a closed terminal) must not take it along.
	const watchdog = spawn(process.execPath, [script, String(ownerPid), String(group)], {detached: true, stdio: 'ignore'});
	watchdog.on('error', () => undefined);
	watchdog.unref();
	return () => {
		if (watchdog.exitCode === null && watchdog.signalCode === null) watchdog.kill('SIGKILL');
	};
}
