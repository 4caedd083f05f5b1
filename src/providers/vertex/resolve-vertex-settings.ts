import type { ProviderConfig } from '../../config/provider-config-schema.js';
import { findGoogleCredentials } from './google-auth/find-google-credentials.js';
import type { GoogleCredentials } from './google-auth/google-credentials.js';
import { vertexOrigin } from './vertex-endpoint.js';

/**
 * The location when neither config nor GOOGLE_CLOUD_LOCATION names one: the global
 * endpoint, which serves Gemini 2.5 and current Claude models without choosing a region
 * (https://cloud.google.com/vertex-ai/generative-ai/docs/learn/locations#use_the_global_endpoint).
 */
export const DEFAULT_VERTEX_LOCATION = 'global';

/** Where one Vertex provider sends its requests and with which credentials. */
export interface VertexSettings {
  project: string;
  location: string;
  /** API origin: config `baseUrl`, else the location's endpoint. */
  baseUrl: string;
  /** Where the base URL came from, for hints. */
  baseUrlFrom: string;
  credentials: GoogleCredentials;
}

/**
 * Project, location and credentials of a `type: "vertex"` provider. Project: config, then
 * GOOGLE_CLOUD_PROJECT, then the key file's `project_id` or gcloud's `quota_project_id`.
 * Location: config, then GOOGLE_CLOUD_LOCATION, then `global`. Throws one line with the
 * fix when no project can be found or a named credentials file is unusable.
 */
export function resolveVertexSettings(id: string, config: ProviderConfig | undefined, env: NodeJS.ProcessEnv): VertexSettings {
  const credentials = findGoogleCredentials({
    env,
    ...(config?.credentialsFile !== undefined ? { credentialsFile: config.credentialsFile, credentialsFileFrom: `providers.${id}.credentialsFile in config.json` } : {}),
  });
  const fromCredentials = credentials.kind === 'service_account' ? credentials.projectId : credentials.kind === 'authorized_user' ? credentials.quotaProjectId : undefined;
  const project = config?.project ?? nonEmpty(env['GOOGLE_CLOUD_PROJECT']) ?? fromCredentials;
  if (project === undefined) {
    throw new Error(
      `provider "${id}" (vertex) needs a Google Cloud project: set providers.${id}.project in config.json or the GOOGLE_CLOUD_PROJECT environment variable (${credentials.origin} names none)`,
    );
  }
  const location = resolveVertexLocation(id, config, env);
  return {
    project,
    location,
    baseUrl: config?.baseUrl ?? vertexOrigin(location),
    baseUrlFrom: config?.baseUrl !== undefined ? `providers.${id}.baseUrl in config.json` : `the ${location} endpoint of Vertex AI`,
    credentials,
  };
}

/**
 * The location a Vertex provider calls: config, then GOOGLE_CLOUD_LOCATION, then `global`.
 * Needs no credentials, so pricing can ask for it alone. Throws one line for a malformed one.
 */
export function resolveVertexLocation(id: string, config: ProviderConfig | undefined, env: NodeJS.ProcessEnv): string {
  const location = config?.location ?? nonEmpty(env['GOOGLE_CLOUD_LOCATION']) ?? DEFAULT_VERTEX_LOCATION;
  if (!/^[a-z0-9-]+$/.test(location)) {
    throw new Error(`provider "${id}" (vertex): location "${location}" is not a Vertex location; use one like "us-east5", "europe-west1" or "global"`);
  }
  return location;
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}
