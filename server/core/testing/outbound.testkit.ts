/**
 * The outbound guard's test hook: allows exactly the `host:port` of the given local fake servers and
 * nothing else (every other internal address stays refused). Production code never calls this.
 */
export function allowOnlyHostsOf(...urls: string[]): (host: string) => boolean {
  const hosts = new Set(urls.map((u) => new URL(u).host));
  return (host) => hosts.has(host);
}
