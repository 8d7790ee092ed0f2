/**
 * Carries the store's "a write is waiting for another process's lock" (AsyncStoreOptions.onLockWait)
 * to the screen: the store is opened before the screen exists, so the screen subscribes later.
 */
export class LockWaits {
	private readonly listeners = new Set<() => void>();

	/** Given to the store as its onLockWait. */
	readonly notify = (): void => {
		for (const listener of this.listeners) listener();
	};

	/** Returns the unsubscribe (a React effect's cleanup). */
	subscribe(listener: () => void): () => void {
		this.listeners.add(listener);
		return () => {
			this.listeners.delete(listener);
		};
	}
}
