// A module the bundle loads only when asked (ADR 0008): undici and @actions/http-client, which the
// toolkit imports at start but only the GitHub side uses. Loaded once; code that uses it before it is
// loaded gets an error that says so.
export function onDemand<M>(
  name: string,
  loaderName: string,
  importModule: () => Promise<M>,
): { load: () => Promise<M>; loaded: () => M } {
  let value: M | undefined;
  return {
    load: async () => (value ??= await importModule()),
    loaded: () => {
      if (!value) throw new Error(`Internal error: ${name} was used before ${loaderName}() was awaited.`);
      return value;
    },
  };
}
