// Checks HTTP exchanges against GitHub's own OpenAPI document (@octokit/openapi): the operation is
// found by method and path, its path and query parameters and JSON request body are validated
// against the document's schemas, and so is the response body for its status. The fake GitHub
// (fake-github.ts) runs every request and response it sees through this, so the adapter is held to
// the real API's shapes, not to the fake's idea of them. Ajv (already installed) does the
// validating; OpenAPI 3.0's `nullable` is turned into JSON Schema first.

import {readFileSync} from 'node:fs';
import {createRequire} from 'node:module';
import {Ajv, type ValidateFunction} from 'ajv';
import addFormatsModule from 'ajv-formats';

type Json = Record<string, any>;
type Parameter = {name: string; in: 'path' | 'query' | 'header' | 'cookie'; required?: boolean; schema?: Json};
type Operation = {template: string; method: string; pattern: RegExp; names: string[]; literalSegments: number; spec: Json};

/** OpenAPI 3.0 schema → JSON Schema: `nullable: true` becomes a null type (or an anyOf with null); examples and extensions go. */
export function toJsonSchema(node: unknown): unknown {
	if (Array.isArray(node)) return node.map(toJsonSchema);
	if (node === null || typeof node !== 'object') return node;
	const source = node as Json;
	const out: Json = {};
	for (const [key, value] of Object.entries(source)) {
		if (key === 'nullable' || key === 'example' || key === 'examples' || key.startsWith('x-')) continue;
		// Under `properties` the keys are property names, not keywords: keep every one.
		out[key] = key === 'properties' ? Object.fromEntries(Object.entries(value as Json).map(([name, schema]) => [name, toJsonSchema(schema)])) : toJsonSchema(value);
	}

	if (source.nullable !== true) return out;
	if (typeof out.type === 'string') {
		out.type = [out.type, 'null'];
		if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
		return out;
	}

	return {anyOf: [out, {type: 'null'}]};
}

/** The statuses any GitHub endpoint may answer whether or not the document lists them for it. */
const ANYWHERE = new Set([304, 401, 403, 429, 500, 502, 503]);

export class OpenApiCheck {
	private readonly operations: Operation[] = [];
	private readonly ajv: Ajv;
	private readonly compiled = new Map<unknown, ValidateFunction>();

	constructor(private readonly doc: Json) {
		this.ajv = new Ajv({strict: false, allErrors: true, validateSchema: false});
		const addFormats = ((addFormatsModule as unknown as {default?: unknown}).default ?? addFormatsModule) as (ajv: Ajv) => void;
		addFormats(this.ajv);
		this.ajv.addSchema({$id: 'gh', components: {schemas: toJsonSchema(doc.components.schemas)}}, undefined, undefined, false);
		for (const [template, methods] of Object.entries(doc.paths as Json)) {
			const names: string[] = [];
			const segments = template.split('/').slice(1);
			const pattern = new RegExp(`^/${segments.map(segment => (/^\{.+\}$/.test(segment) ? (names.push(segment.slice(1, -1)), '([^/]+)') : segment.replaceAll(/[.*+?^$()|[\]\\]/g, '\\$&'))).join('/')}$`);
			for (const [method, spec] of Object.entries(methods as Json)) {
				if (['get', 'post', 'patch', 'put', 'delete'].includes(method)) {
					this.operations.push({template, method: method.toUpperCase(), pattern, names, literalSegments: segments.filter(segment => !segment.startsWith('{')).length, spec: spec as Json});
				}
			}
		}
	}

	/** The operation for METHOD PATH; a literal segment wins over a parameter (`issues/comments` over `issues/{issue_number}`). */
	operation(method: string, path: string): {operation: Operation; params: Record<string, string>} | undefined {
		let best: {operation: Operation; params: Record<string, string>} | undefined;
		for (const operation of this.operations) {
			if (operation.method !== method) continue;
			const match = operation.pattern.exec(path);
			if (!match) continue;
			if (best && best.operation.literalSegments >= operation.literalSegments) continue;
			best = {operation, params: Object.fromEntries(operation.names.map((name, index) => [name, decodeURIComponent(match[index + 1]!)]))};
		}

		return best;
	}

	private resolve<T = Json>(node: Json): T {
		let current = node;
		while (typeof current?.$ref === 'string') {
			current = (current.$ref as string).slice(2).split('/').reduce<Json>((at, key) => at[key.replaceAll('~1', '/').replaceAll('~0', '~')], this.doc);
		}

		return current as T;
	}

	private validator(schema: Json): ValidateFunction {
		let validate = this.compiled.get(schema);
		if (!validate) {
			const converted = JSON.parse(JSON.stringify(toJsonSchema(schema)).replaceAll('"#/components/', '"gh#/components/')) as Json;
			validate = this.ajv.compile(converted);
			this.compiled.set(schema, validate);
		}

		return validate;
	}

	private errorsOf(schema: Json, value: unknown, where: string): string[] {
		const validate = this.validator(schema);
		if (validate(value)) return [];
		return (validate.errors ?? []).slice(0, 5).map(error => `${where}${error.instancePath} ${error.message ?? 'is invalid'}${error.params ? ` ${JSON.stringify(error.params)}` : ''}`);
	}

	/** Everything wrong with a request: an unknown operation, a bad or unknown parameter, a body off its schema. */
	checkRequest(method: string, path: string, query: URLSearchParams, body: unknown): string[] {
		const found = this.operation(method, path);
		if (!found) return [`${method} ${path}: no such operation in GitHub's API`];
		const {operation, params} = found;
		const where = `${method} ${operation.template}`;
		const problems: string[] = [];
		const parameters = ((operation.spec.parameters ?? []) as Json[]).map(parameter => this.resolve<Parameter>(parameter));
		const scalar = (schema: Json | undefined, raw: string, name: string) => {
			if (!schema) return [];
			const resolved = this.resolve(schema);
			const type = resolved.type as string | undefined;
			const value = type === 'integer' || type === 'number' ? (/^-?\d+(\.\d+)?$/.test(raw) ? Number(raw) : raw) : type === 'boolean' ? (raw === 'true' ? true : raw === 'false' ? false : raw) : raw;
			return this.errorsOf(resolved, value, `${where}: parameter ${name}`);
		};

		for (const parameter of parameters) {
			if (parameter.in === 'path') problems.push(...scalar(parameter.schema, params[parameter.name] ?? '', parameter.name));
			if (parameter.in === 'query') {
				const raw = query.get(parameter.name);
				if (raw === null) {
					if (parameter.required) problems.push(`${where}: query parameter ${parameter.name} is required`);
				} else {
					problems.push(...scalar(parameter.schema, raw, parameter.name));
				}
			}
		}

		const known = new Set(parameters.filter(parameter => parameter.in === 'query').map(parameter => parameter.name));
		for (const name of query.keys()) if (!known.has(name)) problems.push(`${where}: unknown query parameter ${name}`);
		const requestBody = operation.spec.requestBody ? this.resolve(operation.spec.requestBody) : undefined;
		const bodySchema = requestBody?.content?.['application/json']?.schema as Json | undefined;
		if (body !== undefined && !bodySchema) problems.push(`${where}: takes no request body`);
		if (body === undefined && requestBody?.required) problems.push(`${where}: a request body is required`);
		if (body !== undefined && bodySchema) problems.push(...this.errorsOf(bodySchema, body, `${where}: request body`));
		return problems;
	}

	/** Everything wrong with a response: a status the operation never answers, a body off the schema for its status. */
	checkResponse(method: string, path: string, status: number, body: unknown): string[] {
		const found = this.operation(method, path);
		if (!found) return [`${method} ${path}: no such operation in GitHub's API`];
		const where = `${method} ${found.operation.template} → ${status}`;
		const responses = found.operation.spec.responses as Json;
		const listed = responses[String(status)] ?? responses.default;
		if (!listed) {
			if (ANYWHERE.has(status)) return [];
			return [`${where}: GitHub does not answer this operation with ${status}`];
		}

		const response = this.resolve(listed);
		const schema = response.content?.['application/json']?.schema as Json | undefined;
		if (!schema) return body === undefined ? [] : [`${where}: has no body in GitHub's API`];
		if (body === undefined) return [`${where}: a body is expected`];
		return this.errorsOf(schema, body, `${where}: response body`);
	}
}

let shared: OpenApiCheck | undefined;

/** The checker over api.github.com's document, loaded once per process (a 13 MB file). */
export function githubOpenApi(): OpenApiCheck {
	if (!shared) {
		const path = createRequire(import.meta.url).resolve('@octokit/openapi/generated/api.github.com.json');
		shared = new OpenApiCheck(JSON.parse(readFileSync(path, 'utf8')) as Json);
	}

	return shared;
}
