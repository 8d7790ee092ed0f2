// `sift proposals` list, accept and decline: the review queue; an accept is one bulk edit of the
// person's, a conflict is shown with both values and written only with `--force`
// ([review](review.md))

import type {AsyncStore, Channel} from '../../store/index.js';
import type {ProposalRow} from '../../store/proposals.js';
import {acceptText, declineText, fieldCountsText, proposalsText} from '../text/review.js';
import {channelOf, confidenceFlag, output, withStore} from './common.js';
import {UsageError, type Command, type CommandContext} from './context.js';

const USAGE = 'expected: sift proposals [list] [--run RUN] | sift proposals stats [--run RUN] | sift proposals accept ID...|--run RUN|--min-confidence N [--force] | sift proposals decline ID...|--run RUN';

/**
 * `sift proposals`: the review queue (docs/review.md). `list` (the default) shows the open
 * proposals; `accept` writes them as one bulk edit of the person's, at their base versions;
 * `decline` closes them. Exit 1 when an accept left a conflict or a refusal.
 */
const command: Command = async context => withStore(context, async store => {
	const [first, ...rest] = context.input;
	const action = first ?? 'list';
	if (action === 'list') {
		if (rest.length > 0) throw new UsageError(USAGE);
		return list(context, store);
	}

	if (action === 'stats') {
		if (rest.length > 0) throw new UsageError(USAGE);
		return stats(context, store);
	}

	if (action !== 'accept' && action !== 'decline') throw new UsageError(`unknown proposals action ${JSON.stringify(action)}; ${USAGE}`);
	if (context.flags.force && action !== 'accept') throw new UsageError('--force only goes with accept');
	if (context.flags.minConfidence !== undefined && action !== 'accept') throw new UsageError('--min-confidence only goes with accept');
	const least = minConfidence(context.flags.minConfidence);
	if (context.flags.where !== undefined) throw new UsageError('--where only goes with list; accept and decline take ids or --run');
	const ids = least === undefined ? await idsNamed(context, store, rest) : await idsSureEnough(context, store, rest, least);
	if (ids.length === 0) {
		output(context, {accepted: [], declined: [], conflicts: [], refused: [], skipped: []}, () => (least === undefined ? `No open proposals of run ${context.flags.run ?? ''}.` : `No open proposals with a confidence of at least ${least}.`));
		return 0;
	}

	if (action === 'decline') {
		const result = await store.proposals.decline(ids);
		output(context, result, () => declineText(result));
		return 0;
	}

	const result = await store.proposals.accept({ids, force: context.flags.force === true});
	const channel = await firstChannel(store, [...result.accepted, ...result.conflicts].map(entry => entry.channel_id));
	output(context, result, () => acceptText(result, channel));
	return result.conflicts.length > 0 || result.refused.length > 0 ? 1 : 0;
});

export default command;

/** `sift proposals stats`: per field, how the channel's (or --run's) proposals were decided. */
async function stats(context: CommandContext, store: AsyncStore): Promise<number> {
	const runId = context.flags.run;
	let channelId: string;
	if (runId === undefined) channelId = await channelOf(store, context);
	else {
		const run = await store.runs.get(runId);
		if (!run) throw new UsageError(`no run ${JSON.stringify(runId).slice(0, 80)} in this database; \`sift runs\` lists them`);
		channelId = run.channel_id;
	}

	const counts = await store.proposals.fieldCounts({channelId, ...(runId === undefined ? {} : {runId})});
	output(context, {channel: channelId, run: runId ?? null, fields: counts}, () => fieldCountsText(counts, runId === undefined ? `channel ${channelId}` : `run ${runId}`));
	return 0;
}

async function list(context: CommandContext, store: AsyncStore): Promise<number> {
	const where = context.flags.where;
	const channelId = context.flags.channel !== undefined || where !== undefined ? await channelOf(store, context) : undefined;
	const proposals = await allOpen(store, {channelId, runId: context.flags.run, where});
	const channel = await firstChannel(store, proposals.map(proposal => proposal.channel_id));
	output(context, proposals, () => proposalsText(proposals, channel));
	return 0;
}

/** The ids on the line, or every open proposal of --run (not both). */
async function idsNamed(context: CommandContext, store: AsyncStore, words: string[]): Promise<number[]> {
	const runId = context.flags.run;
	if (runId !== undefined && words.length > 0) throw new UsageError('give either proposal ids or --run, not both');
	if (runId !== undefined) {
		if (!(await store.runs.get(runId))) throw new UsageError(`no run ${JSON.stringify(runId).slice(0, 80)} in this database; \`sift runs\` lists them`);
		return (await allOpen(store, {runId})).map(proposal => proposal.id);
	}

	if (words.length === 0) throw new UsageError(`name the proposals (their ids, from \`sift proposals\`) or --run RUN; ${USAGE}`);
	return words.map(word => {
		const id = Number(word.replace(/^#/, ''));
		if (!Number.isSafeInteger(id) || id < 1) throw new UsageError(`a proposal id is a whole number such as 12, got ${JSON.stringify(word).slice(0, 40)}`);
		return id;
	});
}

/** `--min-confidence N`: a number from 0 to 1. */
const minConfidence = (text: string | undefined) => confidenceFlag(text, '--min-confidence', 0);

/**
 * The ids named (or every open proposal of --run, or, with neither, of the channel when
 * --channel is given, else of the store) whose confidence is at least `least`: a proposal whose
 * agent gave none is left open.
 */
async function idsSureEnough(context: CommandContext, store: AsyncStore, words: string[], least: number): Promise<number[]> {
	const named = words.length > 0 || context.flags.run !== undefined ? new Set(await idsNamed(context, store, words)) : undefined;
	const channelId = named === undefined && context.flags.channel !== undefined ? await channelOf(store, context) : undefined;
	const open = await allOpen(store, {channelId, runId: context.flags.run});
	return open.filter(proposal => (named === undefined || named.has(proposal.id)) && proposal.confidence !== null && proposal.confidence >= least).map(proposal => proposal.id);
}

/** Every open proposal the query names, page after page. */
async function allOpen(store: AsyncStore, query: {channelId?: string; runId?: string; where?: string}): Promise<ProposalRow[]> {
	const all: ProposalRow[] = [];
	for (let afterId = 0; ;) {
		const page = await store.proposals.list({...query, afterId});
		all.push(...page);
		if (page.length < 1000) return all;
		afterId = page.at(-1)!.id;
	}
}

/** The schema values are shown by: the channel of the first proposal (most queues hold one channel). */
async function firstChannel(store: AsyncStore, channelIds: string[]): Promise<Channel | undefined> {
	const [id] = channelIds;
	return id === undefined ? undefined : store.getChannel(id).catch(() => undefined);
}
