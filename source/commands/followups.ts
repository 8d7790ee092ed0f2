// `sift followups`: the open follow-ups of a channel (values the store refused, and sync
// conflicts with their base, ours and theirs), `dismiss ID`, and `resolve ID --ours|--theirs|--value`
// for a sync conflict (store/sync: the chosen value is written as the person's and queued).

import type {ConflictChoice, FollowUp} from '../../store/index.js';
import {hintFor} from '../text/refusal.js';
import {sanitize, sanitizeValue} from '../text/sanitize.js';
import {channelOf, output, parseLoose, withStore} from './common.js';
import {UsageError, type Command, type CommandContext} from './context.js';

const shown = (value: unknown) => sanitizeValue(value === undefined || value === null ? '(empty)' : JSON.stringify(value));

function describeFollowUp(followUp: FollowUp): string {
	if (followUp.kind === 'sync_conflict') {
		return [
			sanitize(`#${followUp.id} ${followUp.item_id} ${followUp.key}: sync conflict`),
			`    base:   ${shown(followUp.base)}`,
			`    ours:   ${shown(followUp.ours)}`,
			`    theirs: ${shown(followUp.theirs)}`,
			`    ${sanitizeValue(followUp.message)}`,
			sanitize(`    sift followups resolve ${followUp.id} --ours | --theirs | --value VALUE`),
		].join('\n');
	}

	const hint = hintFor(followUp);
	return [
		sanitize(`#${followUp.id} ${followUp.item_id} ${followUp.key}: tried ${sanitizeValue(JSON.stringify(followUp.attempted))}${followUp.run_id ? ` (run ${followUp.run_id})` : ''}`),
		`    ${sanitizeValue(followUp.message)}`,
		...(hint ? [`    ${sanitizeValue(hint)}`] : []),
	].join('\n');
}

function followUpId(id: string | undefined, rest: string[], usage: string): number {
	const number = Number(id);
	if (id === undefined || rest.length > 0 || !Number.isInteger(number) || number < 1) {
		throw new UsageError(`expected: ${usage}`);
	}

	return number;
}

/** Exactly one of --ours, --theirs, --value. */
function choiceOf(context: CommandContext): ConflictChoice {
	const {ours, theirs, value} = context.flags;
	const given = [ours === true, theirs === true, value !== undefined].filter(Boolean).length;
	if (given !== 1) throw new UsageError('give exactly one of --ours, --theirs or --value VALUE');
	if (ours) return {side: 'ours'};
	if (theirs) return {side: 'theirs'};
	return {value: parseLoose(value!)};
}

const command: Command = async context => withStore(context, async store => {
	const [action, id, ...rest] = context.input;
	if (action === 'dismiss') {
		const number = followUpId(id, rest, 'sift followups dismiss ID');
		const followUp = await store.dismissFollowUp(number);
		output(context, followUp, () => `dismissed follow-up #${number}`);
		return 0;
	}

	if (action === 'resolve') {
		const number = followUpId(id, rest, 'sift followups resolve ID --ours|--theirs|--value VALUE');
		const choice = choiceOf(context);
		const followUp = await store.sync.resolveConflict(number, choice);
		const side = 'side' in choice ? choice.side : 'the given value';
		output(context, followUp, () => sanitize(`resolved follow-up #${number} (${followUp.item_id} ${followUp.key}) with ${side}`));
		return 0;
	}

	if (action !== undefined) {
		throw new UsageError(`unknown followups action ${JSON.stringify(action)}; expected: sift followups [dismiss ID | resolve ID --ours|--theirs|--value VALUE]`);
	}

	const channelId = await channelOf(store, context);
	const open = await store.listFollowUps({channelId, status: 'open'});
	output(context, open, () => (open.length === 0 ? 'No open follow-ups.' : open.map(followUp => describeFollowUp(followUp)).join('\n')));
	return 0;
});

export default command;
