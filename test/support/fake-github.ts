// A local, stateful stand-in for GitHub's REST API (node:http on 127.0.0.1, a random port), seeded
// from the real issues fixture. It answers the endpoints sift's sync uses with real Link paging,
// ETags and 304s, rate-limit headers, renames (301), and the failures a test injects (403/429 with
// Retry-After, 502, a dropped connection, a repository that is gone or forbidden). Every request it
// receives and every response it sends is checked against GitHub's OpenAPI document
// (openapi-check.ts); a mismatch is recorded and `assertClean()` fails the test. Writes are counted
// per change, so "exactly once" is a number a test can read.

import {createHash} from 'node:crypto';
import {existsSync, readFileSync} from 'node:fs';
import {createServer, type IncomingMessage, type Server, type ServerResponse} from 'node:http';
import type {AddressInfo, Socket} from 'node:net';
import {fileURLToPath} from 'node:url';
import {githubOpenApi, type OpenApiCheck} from './openapi-check.js';

type Json = Record<string, any>;

export const FIXTURE_REPO = 'rust-lang/rust';
// From test/support under vitest, from dist/test/support when a bench runs the built code (the build copies no fixtures).
const FIXTURE = ['../fixtures/github/rust-lang-rest-issues.jsonl', '../../../test/fixtures/github/rust-lang-rest-issues.jsonl']
	.map(relative => fileURLToPath(new URL(relative, import.meta.url)))
	.find(path => existsSync(path))!;

/** One write the fake took: which issue, what it changed. */
export type FakeWrite = {method: string; path: string; issue: number; change: string};
export type FakeRequest = {method: string; path: string; status: number; conditional: boolean};
type Failure = {status: 403 | 429 | 502 | 'drop'; retryAfter?: number; message?: string; match?: (method: string, path: string) => boolean};

type Repo = {
	name: string;
	issues: Map<number, Json>;
	comments: Json[];
	labels: Map<string, Json>;
	milestones: Json[];
	collaborators: Set<string>;
	/** Issues deleted: their endpoints answer 410. */
	deleted: Set<number>;
	/** Set: every request to the repository answers this status. */
	status?: 401 | 403 | 404;
};

export type FakeGithubOptions = {
	token?: string;
	repo?: string;
	/** Issues from the fixture (default all 300); more are made by cloning them with new numbers. */
	issues?: number;
	/** Comments per issue for every third issue (default 2). */
	comments?: number;
	/** Check every exchange against the OpenAPI document (default true; a bench turns it off for speed). */
	check?: boolean;
};

const userTemplate = (base: Json, login: string, id: number): Json => {
	const user: Json = {...base, login, id, node_id: `U_${id}`};
	for (const [key, value] of Object.entries(base)) {
		if (typeof value === 'string' && key !== 'type' && key !== 'user_view_type') user[key] = value.replaceAll(base.login as string, login);
	}

	return user;
};

export class FakeGithub {
	readonly token: string;
	readonly repos = new Map<string, Repo>();
	readonly renames = new Map<string, string>();
	readonly requests: FakeRequest[] = [];
	readonly writes: FakeWrite[] = [];
	readonly violations: string[] = [];
	/** Told of each write as the fake takes it (a bench in another process times it). */
	onWrite?: (write: FakeWrite) => void;
	private readonly failures: Failure[] = [];
	private readonly holds: Array<{match: (method: string, path: string) => boolean; reached: () => void}> = [];
	private holding = false;
	private readonly sockets = new Set<Socket>();
	private readonly check: OpenApiCheck | undefined;
	private server?: Server;
	private clock: number;
	private nextId = 9_000_000_000;
	private rateRemaining = 5000;
	private userBase: Json;
	url = '';

	constructor(options: FakeGithubOptions = {}) {
		this.token = options.token ?? 'ghp_fakeTokenForTests0123456789abcdefABCD';
		this.check = options.check === false ? undefined : githubOpenApi();
		const lines = readFileSync(FIXTURE, 'utf8').split('\n').filter(Boolean).map(line => JSON.parse(line) as Json);
		this.userBase = lines[0]!.user as Json;
		const name = options.repo ?? FIXTURE_REPO;
		const repo: Repo = {name, issues: new Map(), comments: [], labels: new Map(), milestones: [], collaborators: new Set(['alice', 'bob']), deleted: new Set(), status: undefined};
		const wanted = options.issues ?? lines.length;
		let latest = 0;
		for (let index = 0; index < wanted; index++) {
			const source = structuredClone(lines[index % lines.length]!);
			delete source._meta;
			if (index >= lines.length) {
				source.number = 100_000 + index;
				source.id = 500_000_000 + index;
				source.node_id = `I_clone${index}`;
			}

			for (const label of source.labels as Json[]) repo.labels.set(label.name as string, label);
			for (const user of source.assignees as Json[]) repo.collaborators.add(user.login as string);
			if (source.milestone && !repo.milestones.some(milestone => milestone.number === source.milestone.number)) repo.milestones.push(source.milestone);
			repo.issues.set(source.number as number, source);
			latest = Math.max(latest, Date.parse(source.updated_at as string));
		}

		this.clock = latest + 86_400_000;
		const perIssue = options.comments ?? 2;
		let index = 0;
		for (const issue of repo.issues.values()) {
			if (index++ % 3 !== 0) continue;
			for (let n = 0; n < perIssue; n++) repo.comments.push(this.comment(repo, issue.number as number, `Comment ${n + 1} on #${issue.number}`, 'bob', issue.created_at as string));
		}

		this.repos.set(name, repo);
	}

	/** Starts listening on 127.0.0.1 (a random port); `url` is then the API's base URL. */
	async start(): Promise<this> {
		this.server = createServer((request, response) => {
			void this.handle(request, response);
		});
		this.server.on('connection', socket => {
			this.sockets.add(socket);
			socket.on('close', () => this.sockets.delete(socket));
		});
		await new Promise<void>(resolve => this.server!.listen(0, '127.0.0.1', resolve));
		this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
		return this;
	}

	async stop(): Promise<void> {
		for (const socket of this.sockets) socket.destroy();
		await new Promise<void>(resolve => (this.server ? this.server.close(() => resolve()) : resolve()));
	}

	/** Fails when any exchange broke GitHub's documented shapes. */
	assertClean(): void {
		if (this.violations.length > 0) throw new Error(`the fake GitHub saw exchanges off GitHub's OpenAPI document:\n${this.violations.join('\n')}`);
	}

	repo(name = FIXTURE_REPO): Repo {
		const repo = this.repos.get(name);
		if (!repo) throw new Error(`no repository ${name} in the fake`);
		return repo;
	}

	issue(number: number, repo = FIXTURE_REPO): Json {
		const issue = this.repo(repo).issues.get(number);
		if (!issue) throw new Error(`no issue #${number}`);
		return issue;
	}

	/** Requests that count against the rate limit (a 304 costs nothing on GitHub). */
	countedRequests(): FakeRequest[] {
		return this.requests.filter(request => request.status !== 304);
	}

	writesTo(issue: number): FakeWrite[] {
		return this.writes.filter(write => write.issue === issue);
	}

	/** The next matching request (or the next `count` of them) fails this way. */
	failNext(failure: Failure, count = 1): void {
		for (let index = 0; index < count; index++) this.failures.push(failure);
	}

	/**
	 * The next matching request is carried out but never answered (the connection stays open until
	 * the client goes away or the fake stops): the window between a write and its confirmation.
	 * Resolves once that request has been carried out.
	 */
	holdNext(match: (method: string, path: string) => boolean): Promise<void> {
		return new Promise(resolve => this.holds.push({match, reached: resolve}));
	}

	/** The repository answers only this status from now on (undefined: normal again). */
	setRepoStatus(status: Repo['status'], repo = FIXTURE_REPO): void {
		this.repo(repo).status = status;
	}

	/** The issue is deleted: its own endpoints answer 410 Gone. */
	deleteIssue(number: number, repo = FIXTURE_REPO): void {
		this.repo(repo).deleted.add(number);
	}

	/** The repository is renamed: the old name answers 301 to the new one. */
	rename(from: string, to: string): void {
		const repo = this.repo(from);
		this.repos.delete(from);
		repo.name = to;
		this.repos.set(to, repo);
		this.renames.set(from, to);
	}

	/** Someone edits the issue on GitHub: `change` is applied and updated_at moves on. */
	edit(number: number, change: (issue: Json, fake: this) => void, repo = FIXTURE_REPO): Json {
		const issue = this.issue(number, repo);
		change(issue, this);
		issue.updated_at = this.tick();
		return issue;
	}

	/** A label object (made, and known to the repository, when new). */
	label(name: string, repo = FIXTURE_REPO): Json {
		const known = this.repo(repo).labels.get(name);
		if (known) return known;
		const id = this.nextId++;
		const label = {id, node_id: `LA_${id}`, url: `https://api.github.com/repos/${repo}/labels/${encodeURIComponent(name)}`, name, color: 'ededed', default: false, description: null};
		this.repo(repo).labels.set(name, label);
		return label;
	}

	user(login: string): Json {
		return userTemplate(this.userBase, login, 1000 + [...login].reduce((sum, char) => sum * 31 + char.charCodeAt(0), 7) % 1_000_000);
	}

	addComment(number: number, body: string, login = 'carol', repo = FIXTURE_REPO): Json {
		const target = this.repo(repo);
		const at = this.tick();
		const comment = this.comment(target, number, body, login, at);
		target.comments.push(comment);
		this.issue(number, repo).comments = (this.issue(number, repo).comments as number) + 1;
		this.issue(number, repo).updated_at = at;
		return comment;
	}

	private comment(repo: Repo, number: number, body: string, login: string, at: string): Json {
		const id = this.nextId++;
		return {
			id, node_id: `IC_${id}`, url: `https://api.github.com/repos/${repo.name}/issues/comments/${id}`, html_url: `https://github.com/${repo.name}/issues/${number}#issuecomment-${id}`,
			issue_url: `https://api.github.com/repos/${repo.name}/issues/${number}`, body, user: this.user(login), created_at: at, updated_at: at, author_association: 'CONTRIBUTOR',
		};
	}

	private tick(): string {
		this.clock += 1000;
		return new Date(this.clock).toISOString().replace('.000Z', 'Z');
	}

	private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
		const url = new URL(request.url ?? '/', this.url);
		const method = request.method ?? 'GET';
		const chunks: Buffer[] = [];
		for await (const chunk of request) chunks.push(chunk as Buffer);
		const raw = Buffer.concat(chunks).toString('utf8');
		let body: unknown;
		try {
			body = raw === '' ? undefined : JSON.parse(raw);
		} catch {
			this.violations.push(`${method} ${url.pathname}: the body is not JSON`);
		}

		const failure = this.failures.findIndex(entry => !entry.match || entry.match(method, url.pathname));
		if (failure >= 0) {
			const [taken] = this.failures.splice(failure, 1);
			if (taken!.status === 'drop') {
				this.requests.push({method, path: url.pathname, status: 0, conditional: false});
				request.socket.destroy();
				return;
			}

			const status = taken!.status;
			const headers: Record<string, string> = taken!.retryAfter === undefined ? {} : {'retry-after': String(taken!.retryAfter)};
			const message = taken!.message ?? (status === 502 ? 'Server Error' : 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.');
			this.send(method, url.pathname, response, status, {message, documentation_url: 'https://docs.github.com/rest'}, headers, false);
			return;
		}

		const problems = this.check?.checkRequest(method, url.pathname, url.searchParams, body) ?? [];
		this.violations.push(...problems);
		const auth = request.headers.authorization ?? '';
		if (auth !== `token ${this.token}` && auth !== `Bearer ${this.token}`) {
			this.send(method, url.pathname, response, 401, {message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest', status: '401'});
			return;
		}

		if (problems.length > 0) {
			this.send(method, url.pathname, response, 422, {message: 'Validation Failed', documentation_url: 'https://docs.github.com/rest', errors: problems});
			return;
		}

		const match = /^\/repos\/([^/]+\/[^/]+)(\/.*)?$/.exec(url.pathname);
		if (!match) {
			this.send(method, url.pathname, response, 404, {message: 'Not Found', documentation_url: 'https://docs.github.com/rest'});
			return;
		}

		const name = decodeURIComponent(match[1]!);
		const renamed = this.renames.get(name);
		if (renamed) {
			const location = `${this.url}/repos/${renamed}${match[2] ?? ''}${url.search}`;
			this.send(method, url.pathname, response, 301, {message: 'Moved Permanently', url: location, documentation_url: 'https://docs.github.com/rest'}, {location});
			return;
		}

		const repo = this.repos.get(name);
		if (!repo || repo.status) {
			const status = repo?.status ?? 404;
			const message = {401: 'Bad credentials', 403: 'Resource not accessible by personal access token', 404: 'Not Found'}[status];
			this.send(method, url.pathname, response, status, {message, documentation_url: 'https://docs.github.com/rest'});
			return;
		}

		const hold = this.holds.findIndex(entry => entry.match(method, url.pathname));
		const [held] = hold >= 0 ? this.holds.splice(hold, 1) : [];
		this.holding = held !== undefined;
		try {
			this.route(repo, method, match[2] ?? '', url, body as Json, request, response);
			held?.reached();
		} catch (error) {
			this.violations.push(`${method} ${url.pathname}: the fake failed: ${(error as Error).stack ?? String(error)}`);
			this.send(method, url.pathname, response, 500, {message: 'fake failure'});
		} finally {
			this.holding = false;
		}
	}

	private route(repo: Repo, method: string, rest: string, url: URL, body: Json | undefined, request: IncomingMessage, response: ServerResponse): void {
		const query = url.searchParams;
		const path = url.pathname;
		const list = (items: Json[]) => this.page(method, path, url, items, request, response);
		const notFound = () => this.send(method, path, response, 404, {message: 'Not Found', documentation_url: 'https://docs.github.com/rest'});
		if (method === 'GET' && rest === '/issues') {
			const since = query.get('since');
			const state = query.get('state') ?? 'open';
			const sort = query.get('sort') ?? 'created';
			const direction = query.get('direction') ?? 'desc';
			const key = sort === 'updated' ? 'updated_at' : 'created_at';
			const items = [...repo.issues.values()]
				.filter(issue => (state === 'all' || issue.state === state) && (!since || issue.updated_at >= since))
				.sort((a, b) => (a[key] < b[key] ? -1 : a[key] > b[key] ? 1 : a.number - b.number) * (direction === 'asc' ? 1 : -1));
			list(items);
			return;
		}

		if (method === 'GET' && rest === '/issues/comments') {
			const since = query.get('since');
			const key = query.get('sort') === 'updated' ? 'updated_at' : 'created_at';
			const direction = query.get('direction') ?? 'asc';
			list(repo.comments.filter(comment => !since || comment.updated_at >= since).sort((a, b) => (a[key] < b[key] ? -1 : a[key] > b[key] ? 1 : a.id - b.id) * (direction === 'asc' ? 1 : -1)));
			return;
		}

		if (method === 'GET' && rest === '/labels') return list([...repo.labels.values()]);
		if (method === 'GET' && rest === '/milestones') return list(repo.milestones.filter(milestone => query.get('state') === 'all' || milestone.state === (query.get('state') ?? 'open')));
		if (method === 'GET' && rest === '/assignees') return list([...repo.collaborators].sort().map(login => this.user(login)));
		const issueMatch = /^\/issues\/(\d+)(\/.*)?$/.exec(rest);
		if (!issueMatch) return notFound();
		const number = Number(issueMatch[1]);
		if (repo.deleted.has(number)) return this.send(method, path, response, 410, {message: 'This issue was deleted', documentation_url: 'https://docs.github.com/rest'});
		const issue = repo.issues.get(number);
		if (!issue) return notFound();
		const sub = issueMatch[2] ?? '';
		const write = (change: string) => {
			const taken = {method, path, issue: number, change};
			this.writes.push(taken);
			this.onWrite?.(taken);
			issue.updated_at = this.tick();
		};

		if (method === 'GET' && sub === '') return this.send(method, path, response, 200, issue, {etag: this.etag(issue)}, true, request);
		if (method === 'GET' && sub === '/comments') return list(repo.comments.filter(comment => comment.issue_url.endsWith(`/issues/${number}`)));
		if (method === 'POST' && sub === '/comments') {
			const comment = this.comment(repo, number, String(body?.body ?? ''), 'sift-bot', this.tick());
			repo.comments.push(comment);
			issue.comments = (issue.comments as number) + 1;
			write(`comment:${comment.body as string}`);
			return this.send(method, path, response, 201, comment);
		}

		if (method === 'PATCH' && sub === '') {
			const changes: string[] = [];
			if (body?.title !== undefined && body.title !== issue.title) {
				issue.title = String(body.title);
				changes.push('title');
			}
			if (body?.body !== undefined && body.body !== issue.body) {
				issue.body = body.body;
				changes.push('body');
			}
			if (body?.state !== undefined && body.state !== issue.state) {
				issue.state = body.state;
				issue.closed_at = body.state === 'closed' ? this.tick() : null;
				issue.state_reason = body.state === 'closed' ? (body.state_reason ?? 'completed') : 'reopened';
				changes.push('state');
			} else if (body?.state_reason !== undefined && body.state_reason !== issue.state_reason && issue.state === 'closed') {
				issue.state_reason = body.state_reason;
				changes.push('state_reason');
			}

			if (body && Object.hasOwn(body, 'milestone')) {
				const milestone = body.milestone === null ? null : repo.milestones.find(entry => entry.number === Number(body.milestone));
				if (milestone === undefined) return this.send(method, path, response, 422, {message: 'Validation Failed', documentation_url: 'https://docs.github.com/rest'});
				if ((milestone?.number ?? null) !== (issue.milestone?.number ?? null)) {
					issue.milestone = milestone;
					changes.push('milestone');
				}
			}

			if (changes.length > 0) write(changes.join(','));
			return this.send(method, path, response, 200, issue);
		}

		if (method === 'POST' && sub === '/labels') {
			const names = (Array.isArray(body) ? body : body?.labels ?? []).map((entry: unknown) => (typeof entry === 'string' ? entry : (entry as Json).name as string));
			const added = names.filter((label: string) => !(issue.labels as Json[]).some(entry => entry.name === label));
			for (const label of added) (issue.labels as Json[]).push(this.label(label, repo.name));
			if (added.length > 0) write(`labels+${added.join(',')}`);
			return this.send(method, path, response, 200, issue.labels);
		}

		const labelMatch = /^\/labels\/(.+)$/.exec(sub);
		if (method === 'DELETE' && labelMatch) {
			const label = decodeURIComponent(labelMatch[1]!);
			const labels = issue.labels as Json[];
			const at = labels.findIndex(entry => entry.name === label);
			if (at < 0) return this.send(method, path, response, 404, {message: 'Label does not exist', documentation_url: 'https://docs.github.com/rest'});
			labels.splice(at, 1);
			write(`labels-${label}`);
			return this.send(method, path, response, 200, labels);
		}

		if (sub === '/assignees' && (method === 'POST' || method === 'DELETE')) {
			const logins = (body?.assignees ?? []).map((entry: unknown) => (typeof entry === 'string' ? entry : (entry as Json).login as string)) as string[];
			const current = issue.assignees as Json[];
			const changed: string[] = [];
			for (const login of logins) {
				const at = current.findIndex(user => user.login === login);
				// GitHub silently ignores people who cannot be assigned (no access to the repository).
				if (method === 'POST' && at < 0 && repo.collaborators.has(login)) {
					current.push(this.user(login));
					changed.push(`+${login}`);
				}
				if (method === 'DELETE' && at >= 0) {
					current.splice(at, 1);
					changed.push(`-${login}`);
				}
			}

			issue.assignee = current[0] ?? null;
			if (changed.length > 0) write(`assignees${changed.join(',')}`);
			return this.send(method, path, response, method === 'POST' ? 201 : 200, issue);
		}

		notFound();
	}

	private etag(value: unknown): string {
		return `W/"${createHash('sha1').update(JSON.stringify(value)).digest('hex')}"`;
	}

	/** A paged list with Link headers (first/prev/next/last) and an ETag; If-None-Match that still holds is a 304. */
	private page(method: string, path: string, url: URL, items: Json[], request: IncomingMessage, response: ServerResponse): void {
		const perPage = Math.min(100, Number(url.searchParams.get('per_page') ?? 30));
		const page = Math.max(1, Number(url.searchParams.get('page') ?? 1));
		const last = Math.max(1, Math.ceil(items.length / perPage));
		const slice = items.slice((page - 1) * perPage, page * perPage);
		const link = (number: number, rel: string) => {
			const target = new URL(url.toString());
			target.searchParams.set('page', String(number));
			return `<${target.toString()}>; rel="${rel}"`;
		};

		const links = [...(page < last ? [link(page + 1, 'next'), link(last, 'last')] : []), ...(page > 1 ? [link(1, 'first'), link(page - 1, 'prev')] : [])];
		this.send(method, path, response, 200, slice, {etag: this.etag(slice), ...(links.length > 0 ? {link: links.join(', ')} : {})}, true, request);
	}

	private send(method: string, path: string, response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}, conditional = false, request?: IncomingMessage): void {
		const notModified = conditional && request !== undefined && headers.etag !== undefined && request.headers['if-none-match'] === headers.etag;
		const finalStatus = notModified ? 304 : status;
		if (finalStatus !== 304) this.rateRemaining = Math.max(0, this.rateRemaining - 1);
		this.requests.push({method, path, status: finalStatus, conditional: request?.headers['if-none-match'] !== undefined});
		if (!notModified) this.violations.push(...(this.check?.checkResponse(method, path, finalStatus, body) ?? []));
		if (this.holding) return;
		response.writeHead(finalStatus, {
			'content-type': 'application/json; charset=utf-8',
			'x-ratelimit-limit': '5000',
			'x-ratelimit-remaining': String(this.rateRemaining),
			'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 3600),
			'x-ratelimit-used': String(5000 - this.rateRemaining),
			'x-ratelimit-resource': 'core',
			...headers,
		});
		response.end(notModified ? undefined : JSON.stringify(body));
	}
}

/** A started fake GitHub; stop it in afterAll/afterEach. */
export async function startFakeGithub(options: FakeGithubOptions = {}): Promise<FakeGithub> {
	return new FakeGithub(options).start();
}
