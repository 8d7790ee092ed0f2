// `sift eval`: the agent measured on what the channel knows (`--fields`: a scratch copy with the
// fields hidden, the agent proposing, source/eval/agent-eval.ts), or find_similar_items measured on
// the channel's known duplicates (`--similar --pairs FILE`, source/eval/similar-recall.ts); a
// table or --json.

import {mkdtempSync, readFileSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {openAsyncStore, type AsyncStore} from '../../store/api.js';
import type {Item} from '../../store/index.js';
import {DEFAULT_BATCH_SIZE, DEFAULT_PARALLEL, splitIntoBatches} from '../codex/batches.js';
import {Fanout} from '../codex/fanout.js';
import type {Outcome} from '../codex/outcome.js';
import {batchStarter} from '../codex/run-token.js';
import {agentScores, DEFAULT_EVAL_SAMPLE, DEFAULT_EVAL_SEED, DUPLICATE_FIELD, isKnown, judgedRelations, lastAnswers, sampleItems, scratchCopy, type AgentEvalScores} from '../eval/agent-eval.js';
import {duplicateQuestions, parsePairs, QUESTION_LIMIT, resolveLinks, similarRecall} from '../eval/similar-recall.js';
import {sanitize} from '../text/sanitize.js';
import {channelOf, output, withStore} from './common.js';
import {codexRunOptions, exitCodeOf, runBatches} from './run.js';
import {UsageError, type Command, type CommandContext} from './context.js';

/** Every item of the channel by id, and by the `key` field's value when one is given. */
async function itemNames(store: AsyncStore, channelId: string, key: string | undefined): Promise<Map<string, string>> {
	if (key !== undefined) {
		const field = (await store.getChannel(channelId)).fields.find(candidate => candidate.key === key);
		if (!field) throw new UsageError(`--key ${JSON.stringify(key)} is no field of channel ${channelId}`);
		if (!field.is_unique) throw new UsageError(`--key ${JSON.stringify(key)} is not a unique field of channel ${channelId}: items could share a value`);
	}

	const names = new Map<string, string>();
	let cursor: string | null = null;
	do {
		const page = await store.readItems(channelId, {cursor, limit: 500});
		for (const item of page.items) {
			const value = key === undefined ? item.id : item.values[key];
			if (value !== undefined && value !== null) names.set(String(value), item.id);
		}

		cursor = page.next_cursor;
	} while (cursor);
	return names;
}

const fixed = (value: number) => value.toFixed(3);

const command: Command = async context => {
	if (context.flags.fields !== undefined) {
		if (context.flags.similar) throw new UsageError('give either --fields (the agent) or --similar (duplicate search), not both');
		return agentEval(context);
	}

	if (!context.flags.similar) throw new UsageError('give --fields KEY,... (measure the agent) or --similar --pairs FILE (measure duplicate search)');
	const file = context.flags.pairs;
	if (file === undefined) throw new UsageError('--similar needs --pairs FILE: the known duplicates');
	let text: string;
	try {
		text = readFileSync(file, 'utf8');
	} catch (error) {
		throw new UsageError(`cannot read --pairs ${JSON.stringify(file)}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
	}

	let links;
	try {
		links = parsePairs(text, file);
	} catch (error) {
		throw new UsageError((error as Error).message);
	}

	return withStore(context, async store => {
		const channelId = await channelOf(store, context);
		const names = await itemNames(store, channelId, context.flags.key);
		const resolved = resolveLinks(links, name => names.get(name));
		const questions = duplicateQuestions(resolved.links);
		const recall = await similarRecall(questions, async itemId => (await store.similarItems(channelId, itemId, {limit: QUESTION_LIMIT, olderOnly: true})).items.map(item => item.id));
		const {results, ...scores} = recall;
		const report = {channel: channelId, links: links.length, unresolved_links: resolved.unresolved.length, ...scores, results};
		output(context, report, () => [
			sanitize(`find_similar_items on channel ${channelId}: ${scores.questions} duplicates asked against the items added before them`),
			`(${links.length} links in the file, ${resolved.unresolved.length} naming no item of the channel left out)`,
			`  recall@1   ${fixed(scores.recall_at_1)}`,
			`  recall@5   ${fixed(scores.recall_at_5)}`,
			`  recall@10  ${fixed(scores.recall_at_10)}`,
			`  MRR        ${fixed(scores.mrr)}`,
		].join('\n'));
		return 0;
	});
};

/** What the agent is asked on the scratch copy unless --instruction says otherwise. */
export function evalInstruction(fields: readonly string[]): string {
	const duplicate = fields.includes(DUPLICATE_FIELD) ? ` For ${DUPLICATE_FIELD}, look among the candidates find_similar_items gives before proposing one.` : '';
	return `Work out ${fields.join(', ')} of each item from what its record says, and set them with edit_record_item, giving a confidence from 0 to 1 with each edit.${duplicate} Those fields were emptied on purpose; leave one empty only when the record gives you nothing to go on.`;
}

/** The items of the channel (matching `where`) whose every field of `fields` is known, oldest first. */
async function knownItems(store: AsyncStore, channelId: string, fields: readonly string[], where: string | undefined): Promise<Item[]> {
	const known: Item[] = [];
	let cursor: string | null = null;
	do {
		const page = await store.readItems(channelId, {cursor, limit: 500, ...(where === undefined ? {} : {where})});
		known.push(...page.items.filter(item => fields.every(key => isKnown(item.values[key]))));
		cursor = page.next_cursor;
	} while (cursor);
	return known.sort((a, b) => a.id.localeCompare(b.id));
}

/** `sift eval --fields`: the sample copied, the agent run on the copy in propose mode, its proposals judged. */
async function agentEval(context: CommandContext): Promise<number> {
	const fields = [...new Set(context.flags.fields ?? [])];
	if (fields.length === 0) throw new UsageError('--fields names at least one field');
	const {sample = DEFAULT_EVAL_SAMPLE, seed = DEFAULT_EVAL_SEED, batch = DEFAULT_BATCH_SIZE, parallel = DEFAULT_PARALLEL} = context.flags;
	// Read from the person's store, then let go of it: everything after happens on the copy.
	let copy: ReturnType<typeof scratchCopy> | undefined;
	let channelId = '';
	const read = await withStore(context, async store => {
		channelId = await channelOf(store, context);
		const channel = await store.getChannel(channelId);
		for (const key of fields) {
			const field = channel.fields.find(candidate => candidate.key === key);
			if (!field) throw new UsageError(`--fields: ${JSON.stringify(key)} is no field of channel ${channelId}`);
			if (field.type === 'formula') throw new UsageError(`--fields: ${key} is a formula; the agent cannot propose it`);
		}

		const judged = sampleItems(await knownItems(store, channelId, fields, context.flags.where), sample, seed);
		if (judged.length === 0) {
			context.stderr.write(`sift: no item of channel ${sanitize(channelId)} has ${fields.join(', ')} all known${context.flags.where === undefined ? '' : ' and matches --query'}; nothing to measure\n`);
			return 1;
		}

		const named = new Set(judgedRelations(channel, fields).flatMap(key => judged.map(item => item.values[key]).filter((id): id is string => typeof id === 'string')));
		const related = await Promise.all([...named].map(async id => store.readItem(channelId, id)));
		copy = scratchCopy(channel, judged, related, fields);
		return 0;
	});
	if (read !== 0 || copy === undefined) return read;

	const dir = mkdtempSync(join(tmpdir(), 'sift-eval-'));
	const db = join(dir, 'scratch.db');
	try {
		const scratch = await openAsyncStore(db, {create: true});
		try {
			await scratch.importChannel({channel: copy.channel, items: copy.items});
			const judgedIds = [...copy.truth.keys()];
			const instruction = context.flags.instruction ?? evalInstruction(fields);
			const options = {...codexRunOptions(context, instruction, channelId), dbPath: db, mode: 'propose' as const, stateDir: join(dir, 'state')};
			const outcomes = await runAgent(context, scratch, options, splitIntoBatches(judgedIds, batch), parallel);
			const proposals = [];
			for (let afterId = 0; ;) {
				const page = await scratch.proposals.list({channelId, status: 'all', afterId, limit: 1000});
				proposals.push(...page);
				if (page.length < 1000) break;
				afterId = page.at(-1)!.id;
			}

			const answers = lastAnswers(proposals);
			let ranked: Map<string, string[]> | undefined;
			if (fields.includes(DUPLICATE_FIELD)) {
				ranked = new Map();
				for (const itemId of judgedIds) {
					// The agent's pick first, then the candidates duplicate search offered it.
					const pick = answers.get(itemId)?.get(DUPLICATE_FIELD)?.value;
					const candidates = (await scratch.similarItems(channelId, itemId, {limit: 10})).items.map(item => item.id);
					ranked.set(itemId, [...new Set([...(typeof pick === 'string' ? [pick] : []), ...candidates])].slice(0, 10));
				}
			}

			const scores = agentScores(copy.truth, answers, fields, ranked);
			const report = {channel: channelId, sample: judgedIds.length, seed, context_items: copy.items.length - judgedIds.length, runs: outcomes, proposals: proposals.length, ...scores, ...(context.flags.keep ? {scratch: db} : {})};
			output(context, report, () => agentTable(channelId, judgedIds.length, outcomes, scores, context.flags.keep ? db : undefined));
			return exitCodeOf(outcomes);
		} finally {
			await scratch.close();
		}
	} finally {
		if (!context.flags.keep) rmSync(dir, {recursive: true, force: true});
	}
}

/** The runs on the copy, `parallel` at a time; their outcomes in the order they ended. */
async function runAgent(context: CommandContext, scratch: AsyncStore, options: Parameters<typeof batchStarter>[1], batches: string[][], parallel: number): Promise<Outcome[]> {
	const outcomes: Outcome[] = [];
	const fanout = new Fanout({parallel, start: batchStarter(scratch, options, undefined)});
	fanout.subscribe(event => {
		if (event.type === 'started') context.stderr.write(`sift: eval run ${event.run.runId} (batch ${event.run.index + 1}/${batches.length}, ${event.run.itemIds.length} items)\n`);
		else if (event.type === 'finished') {
			outcomes.push(event.result.outcome);
			context.stderr.write(`sift: eval batch ${event.run.index + 1}/${batches.length}: ${event.result.outcome}, ${event.result.proposals ?? 0} proposed${event.result.error ? ` — ${sanitize(event.result.error)}` : ''}\n`);
		} else if (event.type === 'unstarted') {
			outcomes.push('failed');
			context.stderr.write(`sift: eval batch ${event.run.index + 1}/${batches.length} could not start: ${sanitize(event.run.error ?? '')}\n`);
		} else if (event.type === 'skipped') outcomes.push('cancelled');
	});
	await runBatches(fanout, batches);
	return outcomes;
}

function agentTable(channelId: string, sample: number, outcomes: Outcome[], scores: AgentEvalScores, kept: string | undefined): string {
	const lines = [
		sanitize(`the agent on channel ${channelId}: ${sample} items, their fields hidden on a scratch copy (${outcomes.length} runs: ${outcomes.join(', ')})`),
		'  field                proposed  right  precision  recall  F1     ECE',
		...scores.fields.map(field => sanitize(`  ${field.field.padEnd(20)} ${String(field.proposed).padStart(8)}  ${String(field.correct).padStart(5)}  ${fixed(field.precision).padStart(9)}  ${fixed(field.recall).padStart(6)}  ${fixed(field.f1)}  ${field.ece === null ? '—' : `${fixed(field.ece)} (${field.with_confidence} with a confidence)`}`)),
	];
	if (scores.duplicates) lines.push(`  ${DUPLICATE_FIELD}: recall@1 ${fixed(scores.duplicates.recall_at_1)}, recall@5 ${fixed(scores.duplicates.recall_at_5)}, recall@10 ${fixed(scores.duplicates.recall_at_10)} (the agent's pick, then find_similar_items)`);
	if (kept) lines.push(sanitize(`scratch store kept: ${kept}`));
	return lines.join('\n');
}

export default command;
