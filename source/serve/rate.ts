/**
 * A token bucket per key: `rate` requests a second on average, bursts of up to `rate` at once.
 * One bucket per bearer token, so one noisy agent cannot starve the others. Every answer tells
 * the client where its bucket stands (`headers`), in the RateLimit-* fields of the IETF draft.
 */

/** What a client is told of its bucket: the burst, the whole requests left now, the seconds until it is full again. */
export type RateState = {limit: number; remaining: number; reset: number};

/** The RateLimit-* header fields of a state. */
export const rateHeaders = (state: RateState): Record<string, string> => ({
	'RateLimit-Limit': String(state.limit),
	'RateLimit-Remaining': String(state.remaining),
	'RateLimit-Reset': String(state.reset),
});

export class RateLimiter {
	private readonly buckets = new Map<string, {tokens: number; at: number}>();

	constructor(
		private readonly rate: number,
		private readonly now: () => number = () => performance.now(),
	) {
		if (!(rate > 0)) throw new Error('the rate must be above 0');
	}

	/** Takes `cost` from the key's bucket: 0 when allowed, else whole seconds until it would be. */
	take(key: string, cost = 1): number {
		const now = this.now();
		// One bucket per token ever seen (a token per run): drop them all now and then; a dropped
		// bucket comes back full, which only forgives a burst.
		if (this.buckets.size >= 10_000 && !this.buckets.has(key)) this.buckets.clear();
		const bucket = this.buckets.get(key) ?? {tokens: this.rate, at: now};
		bucket.tokens = Math.min(this.rate, bucket.tokens + ((now - bucket.at) / 1000) * this.rate);
		bucket.at = now;
		this.buckets.set(key, bucket);
		if (bucket.tokens >= cost) {
			bucket.tokens -= cost;
			return 0;
		}

		return Math.max(1, Math.ceil((cost - bucket.tokens) / this.rate));
	}

	/** The key's bucket as it stands now (full when never seen); takes nothing. */
	state(key: string): RateState {
		const bucket = this.buckets.get(key);
		const tokens = bucket ? Math.min(this.rate, bucket.tokens + ((this.now() - bucket.at) / 1000) * this.rate) : this.rate;
		return {limit: Math.floor(this.rate), remaining: Math.max(0, Math.floor(tokens)), reset: Math.ceil((this.rate - tokens) / this.rate)};
	}
}
