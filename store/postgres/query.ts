/**
 * The query language on PostgreSQL: the dialect of store/query/sql.ts over the jsonb `data`
 * column, the index names, and one page statement per request. It sits beside the SQLite
 * compiler so both share every rule of store/query/sql.ts; it builds text only (no client), and
 * store/postgres/ runs it.
 *
 * Order keys are typed so that PostgreSQL orders them as SQLite does: numbers as float8 (SQLite
 * compares JSON numbers as REAL), booleans as 0 and 1, and text and dates byte by byte (COLLATE
 * "C", SQLite's BINARY), whatever the database's own collation.
 */

import {createHash} from 'node:crypto';
import type {Channel, Field, FieldType} from '../types.js';
import type {Position} from '../query/cursor.js';
import {axisOrderKey, FULL_TEXT_CHARACTERS, channelIndexes as indexesOf, channelScopeSql, countStatement, equalityField, orderKeySql, pagePhases, sortKeySql, whereSql, type Dialect, type IndexDefinition, type SqlPart} from '../query/sql.js';
import type {Query, Sort} from '../query/types.js';
import {isLongText, isMetaKey} from '../query/parse.js';

const NUMERIC = new Set<FieldType>(['number', 'currency', 'percentage', 'rating']);

/** A stored value as jsonb. */
export const pgValueSql = (key: string) => `(data->'${key}')`;

const pgText = (key: string) => `(data->>'${key}')`;

/**
 * The words of the long text fields `keys`, as their GIN index holds them: the 'simple'
 * configuration (lowercased, no stemming or stop words, as SQLite's unicode61), over the first
 * FULL_TEXT_CHARACTERS (a tsvector holds at most 1 MB). Punctuation is made a space first, so the
 * words are runs of letters and digits as on SQLite (wordsOf): left to itself the parser keeps
 * `org.apache.hadoop.fs.FileSystem` a host, `/usr/lib` a file and `0.20.2` a version, one word
 * each, which neither search nor find_similar_items could match by its parts. Immutable, so an
 * index can hold it.
 */
const pgTextVector = (keys: string[]) => `to_tsvector('simple'::regconfig, regexp_replace(left(${keys.map(key => `coalesce(${pgText(key)}, '')`).join(` || ' ' || `)}, ${FULL_TEXT_CHARACTERS}), '[[:punct:][:space:]]+', ' ', 'g'))`;

export const postgresDialect: Dialect = {
	// An escape string: the same text whether or not the server reads backslashes in plain literals
	// (standard_conforming_strings).
	string: text => `E'${text.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`,
	value: pgValueSql,
	text: pgText,
	typed(field: Field) {
		if (NUMERIC.has(field.type)) return `(${pgText(field.key)}::float8)`;
		if (field.type === 'boolean') return `((data->'${field.key}')::boolean::int)`;
		return `(${pgText(field.key)} COLLATE "C")`;
	},
	emptyList: key => `jsonb_array_length(data->'${key}') = 0`,
	// Containment of a one-value array, which the channel's GIN index on the list answers (memberIndex).
	listHasAny: (key, count) => `(${Array.from({length: count}, () => `(data->'${key}') @> ?::jsonb`).join(' OR ')})`,
	listValue: value => JSON.stringify([value]),
	memberIndex: key => `(data->'${key}') jsonb_path_ops`,
	// ASCII only, as SQLite's lower(): PostgreSQL's would also fold other letters by its locale,
	// and the two backends would then match different items.
	lower: text => `translate(${text}, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')`,
	contains: lowered => `strpos(${lowered}, ?) > 0`,
	meta: column => `(${column} COLLATE "C")`,
	false: 'false',
	bytes: text => `(${text} COLLATE "C")`,
	listHolds: (key, option) => `((data->'${key}') @> ${postgresDialect.string(JSON.stringify([option]))}::jsonb)`,
	// The matches gathered once from the channel's GIN index (a hashed subplan), then tested per
	// row: a test of each row's own text would make its words (to_tsvector) row by row.
	fullText: (keys, channelId) => `seq IN (SELECT seq FROM items AS matched WHERE matched.${channelScopeSql(channelId)} AND ${pgTextVector(keys)} @@ to_tsquery('simple', ?))`,
	fullTextQuery: words => words.map((word, index) => `'${word}'${index === words.length - 1 ? ':*' : ''}`).join(' <-> '),
	fullTextIndex: keys => pgTextVector(keys),
	exactIndexes: true,
	// One seek, and no equality on the key that would let another index's order pass for this one.
	rowValues: true,
	isSet: key => `${key} IS NOT NULL`,
	// By the walked index's key as well (constant: NULL, or the one value of an equality term), so
	// PostgreSQL sees the index yields the order.
	unsetOrderBy: (key, direction) => `${key} ${direction}, seq ${direction}`,
};

/** Index names stay under PostgreSQL's 63 characters and distinct however long the ids are. */
function indexName(channelId: string, key: string): string {
	const readable = `items_${channelId}_${key}`.replaceAll(/\W/g, '_').slice(0, 40);
	return `${readable}_${createHash('sha1').update(`${channelId}\u0000${key}`).digest('hex').slice(0, 12)}`;
}

/**
 * The per-channel partial indexes (store/query/sql.ts channelIndexes) with PostgreSQL's names.
 * A unique field's jsonb index keeps the name it always had; order indexes get their own.
 */
export const pgChannelIndexes = (channel: Channel): IndexDefinition[] => indexesOf(postgresDialect, (channelId, key, use) => (isMetaKey(key) ? metaIndexName(channelId, key) : indexName(channelId, use === 'value' ? key : `${key}\u0000order`)), channel);

/** The name the long text's index had while it held the parser's own words (schema version 13 and before). */
export const pgParserTextIndexName = (channelId: string) => indexName(channelId, ':text\u0000order');

/**
 * The created_at / updated_at indexes are named by md5, which SQL has too: CHANNEL_TIME_INDEXES_SQL
 * gives channels imported before these indexes existed the same ones.
 */
const metaIndexName = (channelId: string, column: string) => `items_${createHash('md5').update(channelId).digest('hex').slice(0, 20)}_${column}`;

/**
 * Creates the created_at and updated_at indexes (sort:created, updated:<…) of every channel that
 * lacks them, exactly as pgChannelIndexes defines them: a migration step for stores made before
 * them (idempotent).
 */
export const CHANNEL_TIME_INDEXES_SQL = `DO $$
DECLARE c record; col text;
BEGIN
	FOR c IN SELECT id FROM channels LOOP
		FOREACH col IN ARRAY ARRAY['created_at', 'updated_at'] LOOP
			EXECUTE format('CREATE INDEX IF NOT EXISTS %I ON items((%I COLLATE "C"), seq) WHERE channel_id = %L', 'items_' || left(md5(c.id), 20) || '_' || col, col, c.id);
		END LOOP;
	END LOOP;
END $$;`;

/** `?` placeholders as $1, $2, … from `first`, skipping quoted text. */
export function numbered(part: SqlPart, first = 1): SqlPart {
	let n = first - 1;
	let quote: string | null = null;
	let sql = '';
	for (const char of part.sql) {
		if (quote) {
			if (char === quote) quote = null;
		} else if (char === "'" || char === '"') {
			quote = char;
		} else if (char === '?') {
			sql += `$${++n}`;
			continue;
		}

		sql += char;
	}

	return {sql, params: part.params};
}

type Fields = Channel & {fieldsByKey: Map<string, Field>};

/**
 * The statements that read a page, one per phase of the order (store/query/sql.ts pagePhases),
 * each ending in `LIMIT ?`: run in order until enough rows are read, in one snapshot, with
 * PLAN_SETTINGS in force.
 */
export function pgPageStatements(channel: Fields, query: Query, forward: boolean, after: Position | null, limit: number): SqlPart[] {
	const key = query.sort.key === 'id' ? null : sortKeySql(postgresDialect, channel, query.sort.key);
	const where = whereSql(postgresDialect, channel, query.terms);
	const equality = equalityField(channel, query.terms);
	// One value of the axis: the unset phase orders by the sort key too, which only the (axis, sort
	// key, seq) index yields under that term; another field's equality: by that field's index.
	const unsetKey = key && equality && !axisOrderKey(channel, query.sort.key, query.terms) ? orderKeySql(postgresDialect, equality) : key ?? '';
	return pagePhases(postgresDialect, key, query.sort.descending, forward, after, unsetKey).map(phase => numbered({
		sql: `SELECT seq, id, version, created_at, updated_at, data, ${key ?? 'NULL::int'} AS sort_value FROM items WHERE ${channelScopeSql(channel.id)} AND ${phase.condition.sql}${where.sql} ORDER BY ${phase.orderBy} LIMIT ?`,
		params: [...phase.condition.params, ...where.params, limit],
	}));
}

/**
 * What a page read sets for its transaction: each phase walks its order's index (a sort, a bitmap
 * or a sequential scan costs more than any walk), so a page costs the same at any depth whatever
 * the statistics say. This is SQLite's INDEXED BY (store/sqlite/query.ts) in PostgreSQL's terms;
 * a parallel plan could also interleave rows.
 */
export const PLAN_SETTINGS = ['enable_sort', 'enable_bitmapscan', 'enable_seqscan'].map(name => `SET LOCAL ${name} = off`).concat('SET LOCAL max_parallel_workers_per_gather = 0').join('; ');

/**
 * A query with words gathers their matches from the text GIN index (a bitmap, fullText) into a
 * hash, which must fit in memory: a million items' common word is some 100k seqs. Bitmaps and
 * sorts are allowed for it; sequential scans stay off.
 *
 * A membership term (labels:bug) keeps PLAN_SETTINGS: PostgreSQL estimates a jsonb containment
 * at 1% of the rows whatever the value, so a plan it chose by that (the GIN bitmap sorted for the
 * page, or the order's walk) was as often the slower one; its GIN index serves counts.
 */
export const WORDS_MEMORY = "SET LOCAL work_mem = '64MB'";
const WORDS_PLAN_SETTINGS = ['enable_seqscan'].map(name => `SET LOCAL ${name} = off`).concat('SET LOCAL max_parallel_workers_per_gather = 0', WORDS_MEMORY).join('; ');
const searchesWords = (channel: Fields, query: Query) => query.terms.some(term => term.kind === 'words') && channel.fields.some(isLongText);

/** What a count of `query` sets for its transaction: the memory to hash its words' matches, or nothing (null). */
export const countSettingsFor = (channel: Fields, query: Query): string | null => (searchesWords(channel, query) ? WORDS_MEMORY : null);

/** What a page read of `query` sets for its transaction: PLAN_SETTINGS, or WORDS_PLAN_SETTINGS when it searches long text. */
export const planSettingsFor = (channel: Fields, query: Query): string => (searchesWords(channel, query) ? WORDS_PLAN_SETTINGS : PLAN_SETTINGS);

/** The text search query of a search's word lists (store/search.ts RankWords): any of them. */
const rankQuery = (words: string[][]) => words.map(list => `(${postgresDialect.fullTextQuery(list)})`).join(' | ');

/**
 * The ts_rank_cd relevance (as float8, so a score reads back exactly) of the channel's items
 * `seqs` for any of the word lists `words`; an item without any of them is left out.
 */
export function pgScoreStatement(channel: Fields, words: string[][], seqs: number[]): SqlPart {
	const vector = pgTextVector(channel.fields.filter(isLongText).map(field => field.key));
	return {
		sql: `SELECT seq, ts_rank_cd(${vector}, query)::float8 AS score FROM items, to_tsquery('simple', $1) AS query WHERE ${channelScopeSql(channel.id)} AND seq = ANY($2::bigint[]) AND ${vector} @@ query`,
		params: [rankQuery(words), seqs],
	};
}

/** The statement that reads the sort value of the item `seq` in the order `sort` (where a page after it starts). */
export function pgSortValueStatement(channel: Fields, sort: Sort, seq: number): SqlPart {
	const key = sort.key === 'id' ? 'NULL::int' : sortKeySql(postgresDialect, channel, sort.key);
	return {sql: `SELECT ${key} AS value FROM items WHERE ${channelScopeSql(channel.id)} AND seq = $1`, params: [seq]};
}

/** The statement that counts what a query's terms match. */
export const pgCountStatement = (channel: Fields, query: Query): SqlPart => numbered(countStatement(channel.id, whereSql(postgresDialect, channel, query.terms)));

/**
 * How many of the channel's SIMILAR_SAMPLE newest items but `exceptSeq` hold each of `terms`
 * (ts_stat over their text vectors: a bounded sample, not the whole channel), and the sample's size.
 */
export function pgTermFrequenciesStatements(channel: Fields, terms: string[], exceptSeq: number, sample: number): {frequencies: SqlPart; sampled: SqlPart} {
	const vector = pgTextVector(channel.fields.filter(isLongText).map(field => field.key));
	const sampled = `SELECT ${vector} FROM items WHERE ${channelScopeSql(channel.id)} AND seq <> ${Math.trunc(exceptSeq)} ORDER BY seq DESC LIMIT ${Math.trunc(sample)}`;
	return {
		frequencies: {sql: 'SELECT word, ndoc::int AS documents FROM ts_stat($1) WHERE word = ANY($2::text[])', params: [sampled, terms]},
		sampled: {sql: `SELECT count(*)::int AS documents FROM (${sampled}) AS sample`, params: []},
	};
}

/**
 * The channel's items but `exceptSeq` (with `olderOnly` only those before it) whose long text holds
 * any of `terms`, the `limit` that hold the most of them weighed by `weights` (their idf): a sum,
 * not ts_rank_cd, whose cover density counts an OR query's common words as much as its rare ones.
 */
export function pgSimilarStatement(channel: Fields, terms: string[], weights: number[], exceptSeq: number, limit: number, olderOnly = false): SqlPart {
	const vector = pgTextVector(channel.fields.filter(isLongText).map(field => field.key));
	return {
		// The item's text vector made once a row (each term tested with @@ would make it again per term).
		sql: `SELECT seq, id, version, created_at, updated_at, data,
			(SELECT coalesce(sum(weighed.weight), 0) / (1 + ln(1 + count(*))) FROM unnest(tsvector_to_array(${vector})) AS word(lexeme) LEFT JOIN unnest($4::text[], $5::float8[]) AS weighed(term, weight) ON weighed.term = word.lexeme)::float8 AS score
			FROM items, to_tsquery('simple', $1) AS query
			WHERE ${channelScopeSql(channel.id)} AND ${vector} @@ query AND seq ${olderOnly ? '<' : '<>'} $2 ORDER BY score DESC, seq DESC LIMIT $3`,
		params: [terms.map(term => `'${term}'`).join(' | '), exceptSeq, limit, terms, weights],
	};
}
