// What the proxy knows of one model API, as one record (anthropic.ts, openai.ts, gemini.ts): how its
// requests are recognised, where its answers report their usage, what the proxy answers once the budget is
// spent, and the hosts of its preset. model-apis.ts lists the records and holds what they share; adding
// an API is one record and its spec. ADR 0009, docs/network.md.

/** Tokens of one answer. `input` counts every input token, cached ones too (the cache columns are parts). */
export interface Usage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

/** How the proxy changes a request so that its answer carries a usage the meter reads. */
export type UsageRewrite = 'include-usage';

/** A POST whose answer the meter reads. */
export interface ReadableCall {
  /** The model its path names (Gemini's do). */
  pathModel?: string;
  /** The path to send: the request's own, or changed so that the answer is in a format the meter reads. */
  path: string;
  rewrite?: UsageRewrite;
}

/** The usage fields an answer reported (their last values), as the scanner read them. */
export interface ReadFields {
  get(name: string): number;
  has(...names: string[]): boolean;
}

export interface ModelApiRecord<Name extends string = string> {
  name: Name;
  /** The hosts of its `network` preset (`@name`). */
  presetHosts: readonly string[];
  /** Routed paths (model-apis.ts, `routedPath`) of POSTs that spend no tokens, such as counting them. */
  free: readonly RegExp[];
  /** A POST the meter reads, by its routed path (`origin`: its target as sent, in origin form). */
  readable(path: string, origin: string): ReadableCall | undefined;
  /** Why a POST to this routed path spends tokens the meter cannot read, or undefined. */
  unreadable(path: string): string | undefined;
  /** Whether a request header (its name, lower case) says the request is for this API. */
  namedBy(header: string): boolean;
  /** The number fields its usage objects hold, by their path (`a.b`) in the object. */
  fields: readonly string[];
  /** The usage those fields make, or undefined when they make none. */
  usage(fields: ReadFields): Usage | undefined;
  /** The error body its official clients read as a rate limit (HTTP 429), carrying `message`. */
  budgetError(message: string): unknown;
}

/** Why a path spends tokens unread, from a list of [routed path, what it is]. */
export function unreadableBy(
  paths: readonly (readonly [RegExp, string])[],
  path: string,
): string | undefined {
  const found = paths.find(([re]) => re.test(path));
  return found && `${found[1]} reports no usage the proxy can read`;
}
