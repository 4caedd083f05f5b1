/**
 * Application Default Credentials as Google's client libraries find them
 * (https://cloud.google.com/docs/authentication/application-default-credentials): a
 * credentials file of one of two kinds, or the metadata server of the machine agentd runs on.
 */
export type GoogleCredentials = ServiceAccountCredentials | AuthorizedUserCredentials | MetadataServerCredentials;

/** A service-account key file (`"type": "service_account"`), as the IAM console downloads it. */
export interface ServiceAccountCredentials {
  kind: 'service_account';
  /** Where the key was read, and why there (named in errors). */
  origin: string;
  clientEmail: string;
  /** PEM PKCS#8 private key. */
  privateKey: string;
  /** Sent as the JWT's `kid` when present. */
  privateKeyId?: string;
  /** The OAuth token endpoint the assertion is posted to (the key's `token_uri`). */
  tokenUri: string;
  /** The key's project, a default for the Vertex project. */
  projectId?: string;
}

/** gcloud's user credentials (`gcloud auth application-default login`, `"type": "authorized_user"`). */
export interface AuthorizedUserCredentials {
  kind: 'authorized_user';
  origin: string;
  clientId: string;
  clientSecret: string;
  refreshToken: string;
  tokenUri: string;
  /** Billed for the requests (sent as `x-goog-user-project`), and a default for the Vertex project. */
  quotaProjectId?: string;
}

/** The GCE / GKE / Cloud Run metadata server's default service account. */
export interface MetadataServerCredentials {
  kind: 'metadata';
  origin: string;
  /** `http://metadata.google.internal`, or `http://$GCE_METADATA_HOST`. */
  baseUrl: string;
}

/** Google's OAuth token endpoint, the default `token_uri` (https://developers.google.com/identity/protocols/oauth2). */
export const GOOGLE_TOKEN_URI = 'https://oauth2.googleapis.com/token';

/** The one scope Vertex AI needs (https://cloud.google.com/vertex-ai/docs/authentication). */
export const CLOUD_PLATFORM_SCOPE = 'https://www.googleapis.com/auth/cloud-platform';
