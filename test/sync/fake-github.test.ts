// The fake GitHub itself: its checks against GitHub's OpenAPI document catch requests and
// responses off the documented shapes, and its paging, ETags and failures behave as GitHub's do.

import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {startFakeGithub, type FakeGithub} from '../support/fake-github.js';
import {githubOpenApi, toJsonSchema} from '../support/openapi-check.js';

describe('the OpenAPI check', () => {
	const check = githubOpenApi();

	it('turns nullable into JSON Schema', () => {
		expect(toJsonSchema({type: 'string', nullable: true, enum: ['a']})).toEqual({type: ['string', 'null'], enum: ['a', null]});
		expect(toJsonSchema({allOf: [{$ref: '#/x'}], nullable: true})).toEqual({anyOf: [{allOf: [{$ref: '#/x'}]}, {type: 'null'}]});
		expect(toJsonSchema({properties: {nullable: {type: 'string'}}})).toEqual({properties: {nullable: {type: 'string'}}});
	});

	it('finds the operation, a literal segment before a parameter', () => {
		expect(check.operation('GET', '/repos/o/r/issues/comments')?.operation.template).toBe('/repos/{owner}/{repo}/issues/comments');
		expect(check.operation('GET', '/repos/o/r/issues/12')?.params).toEqual({owner: 'o', repo: 'r', issue_number: '12'});
		expect(check.checkRequest('GET', '/repos/o/r/nonsense/path/here/x', new URLSearchParams(), undefined)[0]).toMatch(/no such operation/);
	});

	it('refuses bad parameters and bodies', () => {
		expect(check.checkRequest('GET', '/repos/o/r/issues', new URLSearchParams({state: 'all', per_page: '100'}), undefined)).toEqual([]);
		expect(check.checkRequest('GET', '/repos/o/r/issues', new URLSearchParams({state: 'everything'}), undefined).join()).toMatch(/parameter state/);
		expect(check.checkRequest('GET', '/repos/o/r/issues', new URLSearchParams({bogus: '1'}), undefined).join()).toMatch(/unknown query parameter bogus/);
		expect(check.checkRequest('GET', '/repos/o/r/issues/abc', new URLSearchParams(), undefined).join()).toMatch(/issue_number/);
		expect(check.checkRequest('PATCH', '/repos/o/r/issues/1', new URLSearchParams(), {state: 'done'}).join()).toMatch(/request body/);
		expect(check.checkRequest('PATCH', '/repos/o/r/issues/1', new URLSearchParams(), {state: 'closed', state_reason: 'not_planned'})).toEqual([]);
		expect(check.checkRequest('DELETE', '/repos/o/r/issues/1/assignees', new URLSearchParams(), {}).join()).toMatch(/assignees/);
	});

	it('refuses a response off the schema or with a status the operation never answers', () => {
		expect(check.checkResponse('GET', '/repos/o/r/issues', 200, [{number: 1}]).join()).toMatch(/required/);
		expect(check.checkResponse('GET', '/repos/o/r/issues', 418, {}).join()).toMatch(/does not answer/);
		expect(check.checkResponse('GET', '/repos/o/r/issues', 404, {message: 'Not Found'})).toEqual([]);
	});
});

describe('the fake GitHub', () => {
	let fake: FakeGithub;
	beforeAll(async () => {
		fake = await startFakeGithub();
	});
	afterAll(async () => fake.stop());
	const get = async (path: string, headers: Record<string, string> = {}) => fetch(`${fake.url}${path}`, {headers: {authorization: `token ${fake.token}`, ...headers}});

	it('pages by Link, answers a matching ETag with 304, and its own answers pass the OpenAPI check', async () => {
		const first = await get('/repos/rust-lang/rust/issues?state=all&per_page=100&sort=updated&direction=asc');
		expect(first.status).toBe(200);
		expect((await first.json() as unknown[]).length).toBe(100);
		expect(first.headers.get('link')).toMatch(/page=2>; rel="next"/);
		const again = await get('/repos/rust-lang/rust/issues?state=all&per_page=100&sort=updated&direction=asc', {'if-none-match': first.headers.get('etag')!});
		expect(again.status).toBe(304);
		fake.assertClean();
	});

	it('refuses a bad token and records requests off the document', async () => {
		expect((await fetch(`${fake.url}/repos/rust-lang/rust/issues`)).status).toBe(401);
		expect((await get('/repos/rust-lang/rust/issues?state=sideways')).status).toBe(422);
		expect(fake.violations.join()).toMatch(/parameter state/);
		fake.violations.length = 0;
	});
});
