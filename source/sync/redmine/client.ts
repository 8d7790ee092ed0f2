// The HTTP client for Redmine's REST API: Node's fetch with the key in the X-Redmine-API-Key header
// (never in a URL), a timeout per request, backoff on 5xx and network errors (waits of 1, 4, 9
// units through an injected clock, so tests step time instead of sleeping), and failures as
// RedmineError: one line naming the server and project, never the key. 401/403 and an answer
// that is not JSON stop the sync (fatal); 404 and 422 are for the caller to place.

import type {WatchClock} from '../../codex/watch-loop.js';

export class RedmineError extends Error {
	override name = 'RedmineError';
	readonly expected = true;
	constructor(message: string, readonly status: number | undefined, readonly fatal: boolean, readonly errors: string[] = []) {
		super(message);
	}
}

export type RedmineClientOptions = {
	/** The server's root URL, e.g. https://redmine.example.org or https://host/redmine. */
	url: string;
	key: string;
	clock: WatchClock;
	/** Per request (default 30 s). */
	timeoutMs?: number;
	/** The backoff unit for 5xx and network errors: waits of 1, 4, 9 units (default 1 s). */
	retryBaseMs?: number;
	notice?: (message: string) => void;
	signal?: AbortSignal;
};

export type RedmineResponse<T> = {status: number; data: T; date: number | undefined};

const RETRIES = 3;

export class RedmineClient {
	readonly url: string;
	/** Requests sent (every one reaches the server: Redmine has no conditional requests). */
	requests = 0;

	constructor(private readonly options: RedmineClientOptions) {
		this.url = options.url.replace(/\/+$/, '');
	}

	private verified = false;

	/**
	 * GET, PUT, POST or DELETE of `path` (with its query); the parsed JSON, undefined for an empty
	 * answer. The first request of a client checks the key: Redmine takes a key it does not know as
	 * the anonymous user, who may read a public project, so a wrong key would otherwise pass unseen.
	 */
	async request<T>(method: string, path: string, body?: unknown): Promise<RedmineResponse<T>> {
		if (!this.verified) {
			await this.send('GET', '/my/account.json');
			this.verified = true;
		}

		return this.send<T>(method, path, body);
	}

	private async send<T>(method: string, path: string, body?: unknown): Promise<RedmineResponse<T>> {
		const {signal} = this.options;
		for (let attempt = 0; ; attempt++) {
			let response: Response;
			try {
				this.requests++;
				const timeout = AbortSignal.timeout(this.options.timeoutMs ?? 30_000);
				response = await fetch(`${this.url}${path}`, {
					method,
					headers: {'X-Redmine-API-Key': this.options.key, Accept: 'application/json', ...(body === undefined ? {} : {'Content-Type': 'application/json'})},
					body: body === undefined ? undefined : JSON.stringify(body),
					redirect: 'manual',
					signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
				});
			} catch (error) {
				if (signal?.aborted || attempt >= RETRIES) throw new RedmineError(`redmine ${this.url}: the server could not be reached (${oneLine((error as Error).cause instanceof Error ? ((error as Error).cause as Error).message : (error as Error).message)})`, undefined, false);
				await this.backoff(attempt, 'a network error');
				continue;
			}

			const text = await response.text().catch(() => '');
			if (response.status >= 500 && attempt < RETRIES) {
				await this.backoff(attempt, `HTTP ${response.status}`);
				continue;
			}

			return {status: response.status, data: this.parse<T>(method, path, response, text), date: Date.parse(response.headers.get('date') ?? '') || undefined};
		}
	}

	private async backoff(attempt: number, why: string): Promise<void> {
		const ms = (this.options.retryBaseMs ?? 1000) * (attempt + 1) ** 2;
		this.options.notice?.(`redmine ${this.url}: ${why}; trying again in ${(ms / 1000).toFixed(1)} s`);
		await this.options.clock.sleepUntil(this.options.clock.now() + ms, this.options.signal ?? new AbortController().signal);
	}

	private parse<T>(method: string, path: string, response: Response, text: string): T {
		const {status} = response;
		const what = `${method} ${path.split('?')[0]}`;
		if (status === 401) throw new RedmineError(`redmine ${this.url}: the server refused the API key (401): check REDMINE_API_KEY or sync.redmine_key_file`, status, true);
		if (status === 403) throw new RedmineError(`redmine ${this.url}: access refused (403) to ${what}: the key's user lacks the rights, or the REST API is off (Administration → Settings → API)`, status, true);
		if (status >= 300 && status < 400) throw new RedmineError(`redmine ${this.url}: ${what} was redirected (${status}) to ${response.headers.get('location') ?? 'elsewhere'}: give the server's root URL as it answers`, status, true);
		let json: unknown;
		if (text.trim() !== '') {
			try {
				json = JSON.parse(text);
			} catch {
				if (status === 404) throw new RedmineError(`redmine ${this.url}: not found (404): ${what}`, status, false);
				throw new RedmineError(`redmine ${this.url}: ${what} answered ${status} with ${/^\s*</.test(text) ? 'HTML' : 'text'} where JSON was expected: is ${this.url} the root of a Redmine with the REST API enabled?`, status, true);
			}
		}

		if (status === 404) throw new RedmineError(`redmine ${this.url}: not found (404): ${what}`, status, false);
		if (status === 422) {
			const errors = Array.isArray((json as {errors?: unknown} | undefined)?.errors) ? ((json as {errors: unknown[]}).errors).map(String) : [];
			throw new RedmineError(`redmine ${this.url}: the server refused ${what} (422): ${errors.length > 0 ? errors.join('; ') : oneLine(text)}`, status, false, errors);
		}

		if (status >= 400) throw new RedmineError(`redmine ${this.url}: ${what} failed (${status}): ${oneLine(text)}`, status, false);
		return json as T;
	}
}

const oneLine = (text: string) => text.replaceAll(/\s+/g, ' ').trim().slice(0, 300);
