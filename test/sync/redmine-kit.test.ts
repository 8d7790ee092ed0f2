// The Redmine test kit itself: a fresh instance answers its REST API with the admin's key, holds the
// seeded project, and leaves no process behind once stopped.

import {expect, it} from 'vitest';
import {liveGroupMembers} from '../support/processes.js';
import {describeRedmine, startRedmine} from '../support/redmine.js';

describeRedmine('Redmine test kit', () => {
	it('serves the seeded project over REST and stops without leftovers', async () => {
		const server = await startRedmine();
		try {
			const project = await server.api<{project: {identifier: string}}>('GET', '/projects/sift.json');
			expect(project.project.identifier).toBe('sift');
			const fields = await server.api<{custom_fields: Array<{name: string; field_format: string}>}>('GET', '/custom_fields.json');
			expect(fields.custom_fields.map(field => field.field_format).sort()).toEqual(['bool', 'date', 'float', 'int', 'link', 'list', 'list', 'string', 'text', 'user']);
			const id = await server.createIssue({subject: 'kit', tracker_id: server.seed.trackers.Bug});
			expect((await server.api<{issue: {subject: string}}>('GET', `/issues/${id}.json`)).issue.subject).toBe('kit');
		} finally {
			await server.stop();
		}

		expect(liveGroupMembers(server.pid)).toEqual([]);
	}, 20 * 60_000);
});
