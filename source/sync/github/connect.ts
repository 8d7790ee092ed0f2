// Making a GitHub adapter for a command: the token (token.ts), the client (client.ts) against
// SIFT_GITHUB_API or api.github.com, and the set-up reads `sift sync add` needs to create a
// channel that fits the repository (its labels, milestones and assignable people as options).

import type {Channel} from '../../../store/index.js';
import {githubChannel, labelDetails} from '../../import/github.js';
import {systemClock, type WatchClock} from '../../codex/watch-loop.js';
import {GithubAdapter, repoParts} from './adapter.js';
import {GithubClient} from './client.js';
import {GITHUB_STATE_REASONS} from './mapping.js';
import {findGithubToken, type FoundToken} from './token.js';

export type GithubConnection = {adapter: GithubAdapter; client: GithubClient; token: FoundToken};

export async function connectGithub(options: {env: NodeJS.ProcessEnv; tokenFile?: string; clock?: WatchClock; notice?: (message: string) => void; signal?: AbortSignal}): Promise<GithubConnection> {
	const token = await findGithubToken(options.env, options.tokenFile);
	const client = new GithubClient({token: token.token, baseUrl: options.env.SIFT_GITHUB_API || undefined, clock: options.clock ?? systemClock, notice: options.notice, signal: options.signal});
	return {adapter: new GithubAdapter(client), client, token};
}

type Raw = Record<string, unknown>;

/** A new channel for OWNER/REPO: the importer's GitHub channel, its options read from the repository. */
export async function channelForRepository(client: GithubClient, remote: string, id: string): Promise<Channel> {
	const target = repoParts(remote);
	const all = async (route: string, extra: Record<string, unknown> = {}) => {
		const out: Raw[] = [];
		let response = await client.request<Raw[]>(remote, route, {...target, per_page: 100, ...extra});
		while (response) {
			out.push(...response.data);
			const next = /<([^>]+)>;\s*rel="next"/.exec(String(response.headers.link ?? ''))?.[1];
			response = next ? await client.request<Raw[]>(remote, `GET ${next}`) : undefined;
		}

		return out;
	};

	const [labels, milestones, people] = [await all('GET /repos/{owner}/{repo}/labels'), await all('GET /repos/{owner}/{repo}/milestones', {state: 'all'}), await all('GET /repos/{owner}/{repo}/assignees')];
	const names = (list: Raw[], key: string) => new Set(list.map(entry => entry[key]).filter((value): value is string => typeof value === 'string' && value !== ''));
	const channel = githubChannel(id, remote, {
		states: new Set(['open', 'closed']),
		reasons: new Set(GITHUB_STATE_REASONS),
		labels: labelDetails(labels),
		assignees: names(people, 'login'),
		milestones: names(milestones, 'title'),
	});
	// A choice field the repository has no values for (no milestones, say) is left out, as the
	// importer leaves it out: a select needs options. That field then stays off the link.
	return channel;
}
