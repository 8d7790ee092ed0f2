// The watchdog of one run, as its own process: `node watchdog-process.js OWNER_PID GROUP`.
// It exists for the one exit path sift cannot catch: a SIGKILLed sift. Then nothing in sift can
// stop the run, so this process kills the run's whole process group once the owner is gone, and
// exits. It also exits as soon as the group is gone (the run ended), and the runner kills it when
// the run ends normally. See docs/reference.md#process-lifetime.

import {groupIsRunning, isProcessAlive} from './group.js';

/** How often the owner is looked for: the orphaned run lives at most about this long. */
const POLL_MS = 250;

const [owner, group] = process.argv.slice(2).map(Number);
if (!Number.isInteger(owner) || !Number.isInteger(group) || owner! <= 1 || group! <= 1) {
	process.exit(2);
}

setInterval(() => {
	if (!groupIsRunning(group!)) process.exit(0);
	if (isProcessAlive(owner!)) return;
	try {
		process.kill(-group!, 'SIGKILL');
	} catch {
		// Gone already.
	}

	process.exit(0);
}, POLL_MS);
