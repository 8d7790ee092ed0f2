/** Public shapes of the record store (docs/reference.md#records). */

export const FIELD_TYPES = [
	'text',
	'number',
	'date',
	'boolean',
	'email',
	'phone',
	'url',
	'select',
	'multi_select',
	'currency',
	'percentage',
	'rating',
	'relation',
	'file',
	'json',
	'formula',
] as const;

export type FieldType = (typeof FIELD_TYPES)[number];

/** An option of a select; `description` says what it means (a GitHub label's description). */
export type SelectOption = {value: string; label: string; color?: string; description?: string};

export type FieldConfig = {
	max_length?: number;
	/** Long text is left out of previews. */
	long?: boolean;
	min?: number;
	max?: number;
	integer?: boolean;
	options?: SelectOption[];
	currency?: string;
	max_stars?: number;
	channel_id?: string;
	/** A relation to its own channel: the option of `status_field` an edit setting it also sets (store/duplicates.ts). */
	duplicate_status?: string;
	/** The select field `duplicate_status` goes to; `status` when absent. */
	status_field?: string;
	expression?: string;
};

export type Field = {
	key: string;
	label: string;
	type: FieldType;
	is_required: boolean;
	is_unique: boolean;
	config: FieldConfig;
};

export type Channel = {id: string; name: string; fields: Field[]};

/**
 * A channel's id, name and creation time: the time tells a channel from one made again under the
 * same id (`sift demo --reset`, a new import after a delete), whose events start over.
 */
export type ChannelName = {id: string; name: string; created_at: string};

export type ChannelSummary = {id: string; name: string; item_count: number; latest_sequence: number};

export type Values = Record<string, unknown>;

export type Item = {
	id: string;
	channel_id: string;
	version: number;
	created_at: string;
	updated_at: string;
	/** Stored values plus computed formulas. */
	values: Values;
};

/** `sync`: the sync engine writing what a linked tracker holds (store/sync). */
export type ActorKind = 'human' | 'agent' | 'import' | 'sync';
export type Actor = {kind: ActorKind; run_id?: string};

export type Change = {from: unknown; to: unknown};
export type Changes = Record<string, Change>;

/**
 * `channel.updated`: the schema changed (item_id '', version 0; changes per field key, from and to its definition).
 * `proposal.*`: the review queue changed (docs/review.md): an agent in propose mode proposed an edit
 * (version: the one it was based on; changes: from the base to the proposed values), or a person
 * accepted or declined one (changes empty; an accept's write is its own item.updated).
 * `not_duplicate.marked`: a person said the item is not a duplicate of another (changes: not_duplicate_of from null to its id; store/not-duplicates.ts).
 */
export type EventType = 'item.created' | 'item.updated' | 'item.deleted' | 'channel.updated' | 'proposal.created' | 'proposal.accepted' | 'proposal.declined' | 'not_duplicate.marked';

/**
 * Why a write or a review event happened, beyond its actor (docs/review.md): a proposal (the
 * agent's `proposal.created`, and the person's accept that writes it), or a person's revert of a
 * run. `group` ties the writes of one accept or revert together: what one undo takes back.
 */
export type EventCause =
	/** `auto`: accepted on arrival by auto_accept_above, not by a person's key (docs/review.md#auto-accept). */
	| {kind: 'proposal'; proposal_id: number; run_id: string | null; group?: string; auto?: true}
	| {kind: 'revert'; run_id: string; group?: string};

export type StoreEvent = {
	sequence: number;
	type: EventType;
	item_id: string;
	version: number;
	actor: Actor;
	changes: Changes;
	at: string;
	/** Present when the event came from review: a proposal, or a revert of a run. */
	cause?: EventCause;
};

export type EventPage = {events: StoreEvent[]; next_after_sequence: number; has_more: boolean};

export type ItemPreview = {id: string; version: number; updated_at: string; preview: Values};

export type Page = {
	schema: Field[];
	items: ItemPreview[];
	next_before_id: string | null;
	latest_sequence: number;
	/** Cursors for any order, returned when a page was asked for by where, sort, cursor or from. */
	next_cursor?: string | null;
	prev_cursor?: string | null;
};

/** One refused field of a validation_failed rejection (docs/reference.md#validation). */
export type FieldProblem = {
	key: string;
	message: string;
	allowed?: Array<{value: string; label: string}>;
	min?: number;
	max?: number;
	known?: string[];
	item_id?: string;
};

export type FollowUpStatus = 'open' | 'resolved' | 'dismissed';

/** `refused`: an agent's edit or the tracker refused a value; `sync_conflict`: both sides changed a field since its base. */
export type FollowUpKind = 'refused' | 'sync_conflict';

export type FollowUp = {
	id: number;
	channel_id: string;
	item_id: string;
	key: string;
	status: FollowUpStatus;
	attempted: unknown;
	message: string;
	allowed?: Array<{value: string; label: string}>;
	min?: number;
	max?: number;
	run_id: string | null;
	created_at: string;
	updated_at: string;
	/**
	 * How it closed: the key was set by a later edit, a valid proposal for the key took its place
	 * (docs/review.md), a person dismissed it, or the item went away.
	 */
	resolution: 'set' | 'proposed' | 'dismissed' | 'item_deleted' | null;
	/** What opened it; the store always says, a follow-up made elsewhere (a fixture) without it is a refusal. */
	kind?: FollowUpKind;
	/** A sync conflict's three values: the last agreed one, ours (local) and theirs (the tracker's, or an import's dump). */
	base?: unknown;
	ours?: unknown;
	theirs?: unknown;
};

/**
 * `proposed`: the edit was valid and, the run being in propose mode, became proposal
 * `proposal_id` instead of a write (`item` is the item as it still is; `sequence` is the
 * proposal.created event's).
 */
export type EditResult = {ok: true; item: Item; sequence: number; proposed?: true; proposal_id?: number};

/** One change to a channel's schema, as `sift channel` asks it and the store's changeChannel applies it. */
export type SchemaChange =
	| {kind: 'add_field'; key: string; type: string; label?: string; config?: unknown; required?: boolean}
	| {kind: 'add_option'; key: string; value: string; label?: string; color?: string}
	| {kind: 'rename_label'; key: string; value: string; label: string}
	| {kind: 'retire_option'; key: string; value: string; migrateTo?: string}
	| {kind: 'set_field'; key: string; required?: boolean; config?: unknown};

/** What a schema change did: the channel after it, its event, how many items it moved. */
export type SchemaChangeResult = {channel: Channel; sequence: number; migrated: number};

/** A delete that happened: the item and its event. */
export type DeleteResult = {ok: true; item_id: string; sequence: number};
