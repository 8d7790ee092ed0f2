/**
 * A broadcast list of updates: every iterator replays from the first update, then follows live
 * until the feed is closed. A late or second reader (the TUI re-rendering, a logger) misses nothing.
 */
export class UpdateFeed<T> implements AsyncIterable<T> {
	private readonly history: T[] = [];
	private closed = false;
	private waiters: Array<() => void> = [];

	push(update: T): void {
		this.history.push(update);
		this.wake();
	}

	close(): void {
		this.closed = true;
		this.wake();
	}

	async *[Symbol.asyncIterator](): AsyncIterator<T> {
		let index = 0;
		for (;;) {
			if (index < this.history.length) yield this.history[index++]!;
			else if (this.closed) return;
			else await new Promise<void>(resolve => this.waiters.push(resolve));
		}
	}

	private wake(): void {
		const waiters = this.waiters;
		this.waiters = [];
		for (const resolve of waiters) resolve();
	}
}
