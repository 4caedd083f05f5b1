/** The part of aws4's API agentd uses (https://github.com/mhart/aws4, README "aws4.sign(requestOptions, [credentials])"). */
declare module 'aws4' {
  interface SignableRequest {
    method?: string;
    host?: string;
    path?: string;
    service?: string;
    region?: string;
    body?: string;
    headers?: Record<string, string | number>;
  }
  interface Credentials {
    accessKeyId: string;
    secretAccessKey: string;
    sessionToken?: string;
  }
  /** Signs in place and returns the request, its headers completed with X-Amz-Date, Authorization and the rest. */
  function sign<T extends SignableRequest>(request: T, credentials: Credentials): T & { headers: Record<string, string | number> };
  const aws4: { sign: typeof sign };
  export default aws4;
}
