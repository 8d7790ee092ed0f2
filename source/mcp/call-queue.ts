/**
 * A server's tool calls reach the store one at a time, in the order the server takes them up: the
 * store answers asynchronously now, and without this a session's calls would interleave (two
 * edits of one item overtaking each other). A call whose request was cancelled, or whose
 * connection closed, while it waited its turn never runs (the owner of a run is gone, or the
 * client gave up).
 */
export class CallQueue {
	private tail: Promise<unknown> = Promise.resolve();

	/** Runs `work` after every call queued before it; rejects with `cancelled` if `signal` aborted by then. */
	run<T>(work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
		const turn = this.tail.then(async () => {
			if (signal?.aborted) throw new CallCancelled();
			return work();
		});
		// The next call waits for this one to settle, whatever its outcome.
		this.tail = turn.catch(() => undefined);
		return turn;
	}

	/** Resolves once every call queued so far has settled. */
	async idle(): Promise<void> {
		let tail;
		do {
			tail = this.tail;
			await tail;
		} while (tail !== this.tail);
	}
}

/** A queued call dropped before it ran; the SDK sends nothing for an aborted request. */
export class CallCancelled extends Error {
	constructor() {
		super('the request was cancelled before it ran');
	}
}
