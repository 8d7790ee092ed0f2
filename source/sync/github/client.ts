// The HTTP client for GitHub's REST API: Octokit with the throttling and retry plugins, the base
// URL from SIFT_GITHUB_API (default https://api.github.com), and every wait it takes (a secondary
// rate limit's Retry-After, a primary limit's reset) through an injected clock, so tests step
// time instead of sleeping. Failures become GithubError: one line naming the repository, never the
// token.

import {Octokit} from '@octokit/core';
import {retry} from '@octokit/plugin-retry';
import {throttling} from '@octokit/plugin-throttling';
import Bottleneck from 'bottleneck';
import type {WatchClock} from '../../codex/watch-loop.js';

export const DEFAULT_GITHUB_API = 'https://api.github.com';

/** A GitHub failure that says what happened in one line (the CLI prints it as is). */
export class GithubError extends Error {
	override name = 'GithubError';
	readonly expected = true;
	constructor(message: string, readonly status: number | undefined, readonly fatal: boolean) {
		super(message);
	}
}

export type GithubResponse<T = unknown> = {status: number; data: T; headers: Record<string, string | number | undefined>; url: string};

export type GithubClientOptions = {
	token: string;
	/** The API's base URL (default: $SIFT_GITHUB_API, else https://api.github.com). */
	baseUrl?: string;
	clock: WatchClock;
	/** Time between two writes (GitHub asks for one second to stay clear of secondary limits). */
	writeSpacingMs?: number;
	/** The retry plugin's backoff unit for 5xx and dropped connections: waits of 1, 4, 9 units. */
	retryBaseMs?: number;
	/** How long a primary rate limit may be waited out before the request fails instead. */
	maxRateWaitMs?: number;
	/** Told whenever the client waits or GitHub says something worth repeating. */
	notice?: (message: string) => void;
	signal?: AbortSignal;
};

const SiftOctokit = Octokit.plugin(throttling, retry);

/** The rate limit as GitHub last reported it. */
export type RateLimit = {remaining: number; resetAt: number} | undefined;

export class GithubClient {
	readonly baseUrl: string;
	private readonly octokit: InstanceType<typeof SiftOctokit>;
	rate: RateLimit;
	/** Requests sent that GitHub counted (a 304 costs nothing). */
	counted = 0;
	notModified = 0;

	constructor(private readonly options: GithubClientOptions) {
		this.baseUrl = (options.baseUrl ?? process.env.SIFT_GITHUB_API ?? DEFAULT_GITHUB_API).replace(/\/+$/, '');
		const {clock, notice = () => {}} = options;
		const wait = async (seconds: number, why: string) => {
			notice(`GitHub asked sift to wait ${seconds} s (${why})`);
			await clock.sleepUntil(clock.now() + seconds * 1000, options.signal ?? new AbortController().signal);
		};

		this.octokit = new SiftOctokit({
			auth: options.token,
			baseUrl: this.baseUrl,
			userAgent: 'sift-sync',
			log: {debug: () => {}, info: () => {}, warn: () => {}, error: () => {}},
			request: {signal: options.signal},
			throttle: {
				Bottleneck,
				id: `sift-${Math.random().toString(36).slice(2)}`,
				write: new Bottleneck.Group({maxConcurrent: 1, minTime: options.writeSpacingMs ?? 1000}),
				// The plugin's own timer would wait retryAfter × this; the wait is the clock's instead.
				retryAfterBaseValue: 0,
				onSecondaryRateLimit: async (retryAfter: number, _request: unknown, _octokit: unknown, retryCount: number) => {
					if (retryCount >= 3) return false;
					await wait(retryAfter, 'secondary rate limit');
					return true;
				},
				onRateLimit: async (retryAfter: number, _request: unknown, _octokit: unknown, retryCount: number) => {
					if (retryCount >= 1 || retryAfter * 1000 > (options.maxRateWaitMs ?? 60_000)) return false;
					await wait(retryAfter, 'rate limit used up');
					return true;
				},
			},
			retry: {retryAfterBaseValue: options.retryBaseMs ?? 1000, doNotRetry: [400, 401, 403, 404, 410, 422, 429, 451]},
		});
	}

	/**
	 * One request. `repo` names the repository in any error; a 304 answers `undefined`.
	 * Errors: 401/403/404/410 (and an exhausted rate limit) are fatal GithubErrors, the rest not.
	 */
	async request<T>(repo: string, route: string, parameters: Record<string, unknown> = {}): Promise<GithubResponse<T> | undefined> {
		try {
			const response = await this.octokit.request(route, parameters) as unknown as GithubResponse<T>;
			this.counted++;
			this.noteRate(response.headers);
			return response;
		} catch (error) {
			const status = (error as {status?: number}).status;
			const headers = (error as {response?: {headers?: Record<string, string>}}).response?.headers;
			if (headers) this.noteRate(headers);
			if (status === 304) {
				this.notModified++;
				return undefined;
			}

			if (status !== undefined && status !== 500) this.counted++;
			throw githubError(repo, route, error);
		}
	}

	private noteRate(headers: Record<string, unknown>): void {
		const remaining = Number(headers['x-ratelimit-remaining']);
		const reset = Number(headers['x-ratelimit-reset']);
		if (Number.isFinite(remaining) && Number.isFinite(reset)) this.rate = {remaining, resetAt: reset * 1000};
	}
}

const WHY: Record<number, string> = {
	401: 'GitHub refused the token (401 Bad credentials): check GITHUB_TOKEN, GH_TOKEN, `gh auth login` or sync.github_token_file',
	403: 'GitHub refused access (403): the token lacks the rights (Issues: read and write) or the repository blocks it',
	404: 'not found on GitHub (404): check the name, and that the token can see the repository',
	410: 'gone from GitHub (410): the repository or its issues were deleted or disabled',
};

/** One line for any failure of a request to `repo`; what the route was when it helps. */
export function githubError(repo: string, route: string, error: unknown): GithubError {
	const status = (error as {status?: number}).status;
	const message = (error as Error).message ?? String(error);
	if (status !== undefined && WHY[status]) {
		const rate = status === 403 && /rate limit/i.test(message) ? 'GitHub\'s rate limit is used up (403); try again after it resets' : undefined;
		return new GithubError(`github ${repo}: ${rate ?? WHY[status]}`, status, true);
	}

	if (status === 429) return new GithubError(`github ${repo}: GitHub's rate limit is used up (429); try again later`, status, true);
	if (status === 422) return new GithubError(`github ${repo}: GitHub refused ${route} (422): ${oneLine(message)}`, status, false);
	if (status === undefined || status === 500) return new GithubError(`github ${repo}: GitHub could not be reached (${oneLine(message)})`, status, false);
	return new GithubError(`github ${repo}: ${route} failed (${status}): ${oneLine(message)}`, status, false);
}

const oneLine = (text: string) => text.replaceAll(/\s+/g, ' ').trim().slice(0, 300);
