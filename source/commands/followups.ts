// `sift followups [dismiss ID]`: open follow-ups with what was tried and what is allowed.

import type {FollowUp} from '../../store/index.js';
import {hintFor} from '../text/refusal.js';
import {sanitize, sanitizeValue} from '../text/sanitize.js';
import {channelOf, output, withStore} from './common.js';
import {UsageError, type Command} from './context.js';

function describeFollowUp(followUp: FollowUp): string {
	const hint = hintFor(followUp);
	return [
		sanitize(`#${followUp.id} ${followUp.item_id} ${followUp.key}: tried ${sanitizeValue(JSON.stringify(followUp.attempted))}${followUp.run_id ? ` (run ${followUp.run_id})` : ''}`),
		`    ${sanitizeValue(followUp.message)}`,
		...(hint ? [`    ${sanitizeValue(hint)}`] : []),
	].join('\n');
}

const command: Command = async context => withStore(context, async store => {
	const [action, id, ...rest] = context.input;
	if (action === 'dismiss') {
		const number = Number(id);
		if (id === undefined || rest.length > 0 || !Number.isInteger(number) || number < 1) {
			throw new UsageError('expected: sift followups dismiss ID');
		}

		const followUp = await store.dismissFollowUp(number);
		output(context, followUp, () => `dismissed follow-up #${number}`);
		return 0;
	}

	if (action !== undefined) {
		throw new UsageError(`unknown followups action ${JSON.stringify(action)}; expected: sift followups [dismiss ID]`);
	}

	const channelId = await channelOf(store, context);
	const open = await store.listFollowUps({channelId, status: 'open'});
	output(context, open, () => (open.length === 0 ? 'No open follow-ups.' : open.map(followUp => describeFollowUp(followUp)).join('\n')));
	return 0;
});

export default command;
