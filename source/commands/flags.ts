// The definition of every flag: one source for parsing (type, range, repetition) and `--help`.

import {EVENT_PAGE_LIMIT, PAGE_LIMIT} from '../../store/index.js';
import {DEFAULT_BATCH_SIZE, DEFAULT_PARALLEL, MAX_BATCH_SIZE, MAX_PARALLEL} from '../codex/batches.js';
import type {CliFlags} from './context.js';

/**
 * One flag of the command line. The same definition drives parsing (type, range, repeatability)
 * and the `--help` text, so the two cannot disagree.
 */
export type FlagSpec = {
	/** The long name as typed, without the dashes. */
	name: string;
	/** The CliFlags key it fills. */
	key: keyof CliFlags;
	kind: 'boolean' | 'string' | 'integer' | 'list';
	/** What the value looks like in help (`N`, `FILE`). */
	value?: string;
	/** Allowed range of an integer. */
	min?: number;
	max?: number;
	/** May be given more than once (each value is kept). */
	multiple?: boolean;
	/** A value may start with one dash (`--sort -severity`, `--where "-status:fixed"`); `--x` still is a flag. */
	dashValue?: boolean;
	/** The value stored when the flag is given (boolean flags only). */
	sets?: boolean;
	help: string;
};

const flag = (spec: FlagSpec): FlagSpec => spec;

/** `edit --where` asks for --yes when the query matches more items than this. */
export const WHERE_CONFIRM_LIMIT = 20;

export const FLAGS = {
	db: flag({name: 'db', key: 'db', kind: 'string', value: 'FILE', help: 'the database: a SQLite file or a postgres:// URL (default: $SIFT_DB, else $XDG_DATA_HOME/sift/sift.db)'}),
	statementTimeout: flag({name: 'statement-timeout', key: 'statementTimeout', kind: 'integer', value: 'S', min: 0, max: 86_400, help: 'PostgreSQL: cancel any statement that runs longer than S seconds, as error timeout (default 30; 0: never)'}),
	channel: flag({name: 'channel', key: 'channel', kind: 'string', value: 'ID', help: 'the channel (default: the only one, else default_channel from the config file)'}),
	json: flag({name: 'json', key: 'json', kind: 'boolean', help: 'print JSON'}),
	demoItems: flag({name: 'items', key: 'items', kind: 'integer', value: 'N', min: 1, max: 10_000_000, help: 'how many demo items to generate (default 1000)'}),
	seed: flag({name: 'seed', key: 'seed', kind: 'integer', value: 'S', min: 0, max: 2 ** 31 - 1, help: 'the generator seed (default 1)'}),
	reset: flag({name: 'reset', key: 'reset', kind: 'boolean', help: 'rebuild the demo channel (refused when the database holds other channels, and on PostgreSQL)'}),
	noOpen: flag({name: 'no-open', key: 'open', kind: 'boolean', sets: false, help: 'do not open the TUI afterwards'}),
	before: flag({name: 'before', key: 'before', kind: 'string', value: 'ID', help: 'the page after this item id (the cursor the previous page printed)'}),
	listLimit: flag({name: 'limit', key: 'limit', kind: 'integer', value: 'N', min: 1, max: PAGE_LIMIT, help: `items per page, 1 to ${PAGE_LIMIT} (default ${PAGE_LIMIT})`}),
	all: flag({name: 'all', key: 'all', kind: 'boolean', help: 'every item, page after page (JSON Lines with --json)'}),
	filter: flag({name: 'filter', key: 'filter', kind: 'string', value: 'KEY=VALUE', multiple: true, help: 'only items whose select or boolean field has this value (repeatable)'}),
	where: flag({name: 'where', key: 'where', kind: 'string', value: 'QUERY', dashValue: true, help: 'only items matching the query, e.g. "status:new severity:s1,s2 due:<+7d"'}),
	sort: flag({name: 'sort', key: 'sort', kind: 'string', value: 'FIELD|-FIELD', dashValue: true, help: 'the order: a field key, descending with a leading - (default: newest first)'}),
	cursor: flag({name: 'cursor', key: 'cursor', kind: 'string', value: 'C', help: 'the page after this cursor (the one the previous page printed; give the same --where and --sort)'}),
	editWhere: flag({name: 'where', key: 'where', kind: 'string', value: 'QUERY', dashValue: true, help: 'edit every item matching the query instead of naming them'}),
	yes: flag({name: 'yes', key: 'yes', kind: 'boolean', help: `go ahead when --where matches more than ${WHERE_CONFIRM_LIMIT} items`}),
	after: flag({name: 'after', key: 'after', kind: 'integer', value: 'N', min: 0, max: Number.MAX_SAFE_INTEGER, help: 'events after this sequence number (default 0)'}),
	eventLimit: flag({name: 'limit', key: 'limit', kind: 'integer', value: 'N', min: 1, max: EVENT_PAGE_LIMIT, help: `events per page, 1 to ${EVENT_PAGE_LIMIT} (default ${EVENT_PAGE_LIMIT})`}),
	runsLimit: flag({name: 'limit', key: 'limit', kind: 'integer', value: 'N', min: 1, max: 1000, help: 'how many runs, newest first (default 20)'}),
	expectVersion: flag({name: 'expect-version', key: 'expectVersion', kind: 'integer', value: 'N', min: 1, max: Number.MAX_SAFE_INTEGER, help: 'refuse unless the item is at version N'}),
	grant: flag({name: 'grant', key: 'grant', kind: 'string', value: 'CHANNEL', multiple: true, help: 'a channel the tools may touch (repeatable, at least one)'}),
	actor: flag({name: 'actor', key: 'actor', kind: 'string', value: 'KIND', help: 'who the edits are recorded as: agent (default) or human'}),
	run: flag({name: 'run', key: 'run', kind: 'string', value: 'ID', help: 'the run the edits belong to'}),
	ownerPid: flag({name: 'owner-pid', key: 'ownerPid', kind: 'integer', value: 'PID', min: 1, max: 2 ** 31 - 1, help: 'exit once this process is gone'}),
	ours: flag({name: 'ours', key: 'ours', kind: 'boolean', help: 'resolve a sync conflict with the value here'}),
	theirs: flag({name: 'theirs', key: 'theirs', kind: 'boolean', help: 'resolve a sync conflict with the other side\'s value (the tracker\'s, or the imported file\'s)'}),
	resolveValue: flag({name: 'value', key: 'value', kind: 'string', value: 'VALUE', dashValue: true, help: 'resolve a sync conflict with this value (JSON when it parses, else text)'}),
	dbEnv: flag({name: 'db-env', key: 'dbEnv', kind: 'string', value: 'VAR', help: 'read the database location from the environment variable VAR instead of --db (so a password in a URL stays off command lines)'}),
	runItems: flag({name: 'items', key: 'itemIds', kind: 'list', value: 'ITEM,...', help: 'the items to work on, each an id or a unique value such as BUG-0042 (default: the agent chooses)'}),
	runWhere: flag({name: 'where', key: 'where', kind: 'string', value: 'QUERY', dashValue: true, help: 'the items to work on: those matching the query (instead of --items)'}),
	batch: flag({name: 'batch', key: 'batch', kind: 'integer', value: 'N', min: 1, max: MAX_BATCH_SIZE, help: `items per Codex run, 1 to ${MAX_BATCH_SIZE} (default ${DEFAULT_BATCH_SIZE}); more items make several runs`}),
	parallel: flag({name: 'parallel', key: 'parallel', kind: 'integer', value: 'P', min: 1, max: MAX_PARALLEL, help: `Codex runs at once, 1 to ${MAX_PARALLEL} (default ${DEFAULT_PARALLEL})`}),
	watchWhere: flag({name: 'where', key: 'where', kind: 'string', value: 'QUERY', dashValue: true, help: 'send only items matching the query (default: every new item)'}),
	instruction: flag({name: 'instruction', key: 'instruction', kind: 'string', value: 'TEXT', help: 'what Codex is asked to do with each batch (default: triage the new items)'}),
	settle: flag({name: 'settle', key: 'settle', kind: 'string', value: 'DURATION', help: 'how long a batch waits to fill before it goes anyway, e.g. 5s, 500ms, 1m (default 5s)'}),
	model: flag({name: 'model', key: 'model', kind: 'string', value: 'M', help: 'the model'}),
	config: flag({name: 'config', key: 'config', kind: 'string', value: 'FILE', help: 'the config file (default: $XDG_CONFIG_HOME/sift/config.yaml)'}),
	timeout: flag({name: 'timeout', key: 'timeout', kind: 'integer', value: 'S', min: 1, max: 86_400, help: 'the run\'s deadline in seconds'}),
	codex: flag({name: 'codex', key: 'codex', kind: 'string', value: 'PATH', help: 'the codex binary (default: $SIFT_CODEX, codex on PATH, the local one)'}),
	codexConfig: flag({name: 'codex-config', key: 'codexConfig', kind: 'string', value: 'K=V', multiple: true, help: 'passed to codex as -c K=V (repeatable)'}),
	keepApiEnv: flag({name: 'keep-api-env', key: 'keepApiEnv', kind: 'boolean', help: 'keep CODEX_API_KEY / OPENAI_API_KEY / OPENAI_BASE_URL for codex'}),
	propose: flag({name: 'propose', key: 'propose', kind: 'boolean', help: 'propose instead of writing: the agent\'s valid edits wait in the review queue for a person (`sift proposals`)'}),
	mcpPropose: flag({name: 'propose', key: 'propose', kind: 'boolean', help: 'valid edits become proposals for a person instead of writes (a run recorded in propose mode proposes in any case)'}),
	minConfidence: flag({name: 'min-confidence', key: 'minConfidence', kind: 'string', value: 'N', help: 'accept only proposals whose confidence is at least N (0 to 1); one without a confidence is left open'}),
	autoAcceptAbove: flag({name: 'auto-accept-above', key: 'autoAcceptAbove', kind: 'string', value: 'N', help: 'with --propose: a proposal whose confidence is at least N (above 0, at most 1) is accepted as it arrives, recorded as accepted by auto'}),
	force: flag({name: 'force', key: 'force', kind: 'boolean', help: 'accept even where a proposed field changed since the proposal was made: the current value is overwritten'}),
	proposalsRun: flag({name: 'run', key: 'run', kind: 'string', value: 'RUN', help: 'the proposals of this run'}),
	proposalsWhere: flag({name: 'where', key: 'where', kind: 'string', value: 'QUERY', dashValue: true, help: 'only proposals for items matching the query'}),
	revertYes: flag({name: 'yes', key: 'yes', kind: 'boolean', help: 'revert; without it the revert is only shown'}),
	allowAgentShell: flag({name: 'allow-agent-shell', key: 'allowAgentShell', kind: 'boolean', help: 'run even when this Codex gives the agent a shell that cannot be turned off (see `sift doctor`)'}),
	listen: flag({name: 'listen', key: 'listen', kind: 'string', value: 'HOST:PORT', help: 'where to listen (default 127.0.0.1:7345)'}),
	allowHost: flag({name: 'allow-host', key: 'allowHost', kind: 'string', value: 'HOST[:PORT]', multiple: true, help: 'another name the server answers to in Host and Origin, any port or that port (repeatable, case-insensitive)'}),
	rate: flag({name: 'rate', key: 'rate', kind: 'integer', value: 'N', min: 1, max: 1_000_000, help: 'requests a second allowed per token (default 50)'}),
	tokenGrant: flag({name: 'grant', key: 'grant', kind: 'string', value: 'CHANNEL[,...]', multiple: true, help: 'the channels the token may touch'}),
	tokenName: flag({name: 'name', key: 'name', kind: 'string', value: 'N', help: 'the token\'s name (default: generated)'}),
	tokenScope: flag({name: 'scope', key: 'scope', kind: 'string', value: 'read|write', help: 'read: the token may read its channels, not edit them; write (default): read and edit'}),
	expires: flag({name: 'expires', key: 'expires', kind: 'string', value: 'DURATION', help: 'lifetime such as 30d, 12h, 90m, or never (default 30d)'}),
	server: flag({name: 'server', key: 'server', kind: 'string', value: 'URL', help: 'reach the store through `sift serve` at URL instead of a local MCP server'}),
	format: flag({name: 'format', key: 'format', kind: 'string', value: 'F', help: 'the file\'s format: sift, github, csv or jsonl (default: told from the content)'}),
	importChannel: flag({name: 'channel', key: 'channel', kind: 'string', value: 'ID', help: 'the new channel\'s id (default: from the file name)'}),
	map: flag({name: 'map', key: 'map', kind: 'string', value: 'MAP.yaml', help: 'the column map: column → field key, type and options (csv, jsonl)'}),
	into: flag({name: 'into', key: 'into', kind: 'string', value: 'CHANNEL', help: 'append to and update this existing channel (with --key)'}),
	key: flag({name: 'key', key: 'key', kind: 'string', value: 'FIELD', help: 'the unique field rows are matched on (with --into)'}),
	growOptions: flag({name: 'grow-options', key: 'growOptions', kind: 'boolean', help: 'add values outside a select\'s options to the schema instead of refusing them'}),
	dryRun: flag({name: 'dry-run', key: 'dryRun', kind: 'boolean', help: 'check everything and print what would happen; write nothing'}),
	schemaOut: flag({name: 'schema-out', key: 'schemaOut', kind: 'string', value: 'FILE', help: 'write the inferred schema as a map file to edit and import with (--map)'}),
	exportFormat: flag({name: 'format', key: 'format', kind: 'string', value: 'sift|jsonl|csv', help: 'the format: sift (the file sift import reads, default), jsonl (one object per item) or csv (RFC 4180, a header row)'}),
	csvRaw: flag({name: 'csv-raw', key: 'csvRaw', kind: 'boolean', help: 'csv: write every cell\'s exact bytes (by default a cell a spreadsheet would run as a formula, starting with = + - @ tab or CR, gets a leading \')'}),
	exportOut: flag({name: 'out', key: 'out', kind: 'string', value: 'FILE', help: 'write FILE (whole or not at all) instead of standard output'}),
	exportWhere: flag({name: 'where', key: 'where', kind: 'string', value: 'QUERY', dashValue: true, help: 'only items matching the query; its sort: term orders them (default: oldest first)'}),
	label: flag({name: 'label', key: 'label', kind: 'string', value: 'L', help: 'the label people see (default: the key or value as given)'}),
	color: flag({name: 'color', key: 'color', kind: 'string', value: 'C', help: 'the option\'s color (a name such as red, or #rrggbb)'}),
	option: flag({name: 'option', key: 'option', kind: 'string', value: 'VALUE[:LABEL]', multiple: true, help: 'an option of a new select or multi_select field, in order (repeatable; the label defaults to the value)'}),
	fieldConfig: flag({name: 'config', key: 'fieldConfig', kind: 'string', value: 'JSON', help: 'the field\'s config as a JSON object, e.g. \'{"max_length": 200}\''}),
	required: flag({name: 'required', key: 'required', kind: 'boolean', help: 'the field must hold a value'}),
	optional: flag({name: 'optional', key: 'required', kind: 'boolean', sets: false, help: 'the field may be empty'}),
	syncChannel: flag({name: 'channel', key: 'channel', kind: 'string', value: 'ID', help: 'add: the channel to create or link (default: the repository\'s or project\'s name); otherwise: the linked channel (default: every one)'}),
	syncMap: flag({name: 'map', key: 'map', kind: 'string', value: 'MAP.yaml', help: 'add: which GitHub or Redmine fields fill which sift fields, and which stay local (docs/sync.md#mapping)'}),
	syncProject: flag({name: 'project', key: 'project', kind: 'string', value: 'IDENTIFIER', help: 'add redmine: the Redmine project\'s identifier'}),
	watch: flag({name: 'watch', key: 'watch', kind: 'boolean', help: 'sync again and again (pull, then push) until interrupted'}),
	interval: flag({name: 'interval', key: 'interval', kind: 'string', value: 'DURATION', help: 'with --watch: the time between rounds, e.g. 30s, 5m (default 60s; longer when GitHub\'s rate limit runs low or after failures)'}),
	migrateTo: flag({name: 'migrate-to', key: 'migrateTo', kind: 'string', value: 'VALUE', help: 'move the items holding the option to this one (each a versioned edit) instead of refusing'}),
	evalSimilar: flag({name: 'similar', key: 'similar', kind: 'boolean', help: 'measure find_similar_items on known duplicates (with --pairs); no model is run'}),
	pairs: flag({name: 'pairs', key: 'pairs', kind: 'string', value: 'FILE', help: 'the known duplicates: CSV, a header row, then ITEM,DUPLICATES rows (DUPLICATES one item or several, comma-separated in one cell)'}),
	evalKey: flag({name: 'key', key: 'key', kind: 'string', value: 'FIELD', help: 'the pairs file names items by this unique field\'s values (default: item ids)'}),
	evalFields: flag({name: 'fields', key: 'fields', kind: 'list', value: 'KEY,...', help: 'the fields to hide and have the agent propose (the sample holds only items where all are known)'}),
	evalSample: flag({name: 'sample', key: 'sample', kind: 'integer', value: 'N', min: 1, max: 100_000, help: 'how many items to measure on, chosen by --seed (default 100)'}),
	evalSeed: flag({name: 'seed', key: 'seed', kind: 'integer', value: 'S', min: 0, max: 2 ** 31 - 1, help: 'which sample: the same seed picks the same items (default 1)'}),
	evalQuery: flag({name: 'query', key: 'where', kind: 'string', value: 'QUERY', dashValue: true, help: 'sample only items matching the query'}),
	evalInstruction: flag({name: 'instruction', key: 'instruction', kind: 'string', value: 'TEXT', help: 'what the agent is asked (default: propose the hidden fields from what each record says, with a confidence)'}),
	keep: flag({name: 'keep', key: 'keep', kind: 'boolean', help: 'keep the scratch store afterwards and print where it is (to look at the proposals)'}),
} as const;

/** The flags of everything that opens the store. */
export const STORE_FLAGS: FlagSpec[] = [FLAGS.db, FLAGS.statementTimeout];

/** The flags of everything that launches Codex. */
export const CODEX_FLAGS: FlagSpec[] = [FLAGS.codex, FLAGS.model, FLAGS.codexConfig, FLAGS.keepApiEnv, FLAGS.allowAgentShell, FLAGS.timeout];

/** What a command line holds before any flag is given. */
export function defaultFlags(): CliFlags {
	return {json: false, reset: false, open: true, all: false, filter: [], grant: [], codexConfig: [], allowHost: [], option: [], keepApiEnv: false, allowAgentShell: false};
}
