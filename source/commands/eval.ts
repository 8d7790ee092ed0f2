// `sift eval --similar --pairs FILE`: find_similar_items measured on the channel's known
// duplicates (source/eval/similar-recall.ts): recall@1/5/10 and MRR, as a table or --json.

import {readFileSync} from 'node:fs';
import type {AsyncStore} from '../../store/api.js';
import {duplicateQuestions, parsePairs, QUESTION_LIMIT, resolveLinks, similarRecall} from '../eval/similar-recall.js';
import {sanitize} from '../text/sanitize.js';
import {channelOf, output, withStore} from './common.js';
import {UsageError, type Command} from './context.js';

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
	if (!context.flags.similar) throw new UsageError('give --similar --pairs FILE (the agent\'s own measure is not here yet)');
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

export default command;
