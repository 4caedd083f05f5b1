import { z } from 'zod';
import { MetaSchema } from './meta.js';

/*
 * ACP content blocks (schema.json `ContentBlock` and its parts; see
 * https://agentclientprotocol.com/protocol/v1/content). They mirror MCP's content types.
 * Every object is open (unknown fields pass) and every optional field also accepts
 * `null`, exactly as ACP's schema does, so newer clients are never rejected.
 */

/** Who a piece of content is meant for. */
export const RoleSchema = z.enum(['assistant', 'user']).describe('The sender or recipient of content.');
export type Role = z.infer<typeof RoleSchema>;

/** Display hints for a content block. */
export const AnnotationsSchema = z
  .looseObject({
    audience: z.array(RoleSchema).nullish().describe('Intended recipients of this content.'),
    lastModified: z.string().nullish().describe('ISO 8601 time the underlying resource last changed.'),
    priority: z.number().nullish().describe('Relative importance, 0 (least) to 1 (most).'),
    _meta: MetaSchema,
  })
  .describe('Optional display and routing hints for a content block.');
export type Annotations = z.infer<typeof AnnotationsSchema>;

const annotations = AnnotationsSchema.nullish().describe('Display and routing hints.');

/** Plain text. */
export const TextContentSchema = z
  .looseObject({
    type: z.literal('text'),
    text: z.string().describe('The text.'),
    annotations,
    _meta: MetaSchema,
  })
  .describe('Text to or from the model.');
export type TextContent = z.infer<typeof TextContentSchema>;

/** An image, base64-encoded. Needs `promptCapabilities.image` in prompts. */
export const ImageContentSchema = z
  .looseObject({
    type: z.literal('image'),
    data: z.string().describe('Base64-encoded image bytes.'),
    mimeType: z.string().describe('e.g. `image/png`.'),
    uri: z.string().nullish().describe('Where the image came from, if known.'),
    annotations,
    _meta: MetaSchema,
  })
  .describe('An image to or from the model.');
export type ImageContent = z.infer<typeof ImageContentSchema>;

/** Audio, base64-encoded. Needs `promptCapabilities.audio` in prompts. */
export const AudioContentSchema = z
  .looseObject({
    type: z.literal('audio'),
    data: z.string().describe('Base64-encoded audio bytes.'),
    mimeType: z.string().describe('e.g. `audio/wav`.'),
    annotations,
    _meta: MetaSchema,
  })
  .describe('Audio to or from the model.');
export type AudioContent = z.infer<typeof AudioContentSchema>;

/** A reference the agent can read itself (every agent must accept these in prompts). */
export const ResourceLinkSchema = z
  .looseObject({
    type: z.literal('resource_link'),
    uri: z.string().describe('URI of the resource, e.g. `file:///abs/path.ts`.'),
    name: z.string().describe('Human-readable name.'),
    title: z.string().nullish().describe('Display title.'),
    description: z.string().nullish().describe('Human-readable details.'),
    mimeType: z.string().nullish().describe('MIME type, if known.'),
    size: z.number().int().nullish().describe('Size in bytes, if known.'),
    annotations,
    _meta: MetaSchema,
  })
  .describe('A link to a resource the daemon can read itself.');
export type ResourceLink = z.infer<typeof ResourceLinkSchema>;

/** Text contents of an embedded resource. */
export const TextResourceContentsSchema = z
  .looseObject({
    uri: z.string().describe('URI of the resource.'),
    text: z.string().describe('The resource text.'),
    mimeType: z.string().nullish().describe('MIME type, if known.'),
    _meta: MetaSchema,
  })
  .describe('Text resource contents.');
export type TextResourceContents = z.infer<typeof TextResourceContentsSchema>;

/** Binary contents of an embedded resource. */
export const BlobResourceContentsSchema = z
  .looseObject({
    uri: z.string().describe('URI of the resource.'),
    blob: z.string().describe('Base64-encoded bytes.'),
    mimeType: z.string().nullish().describe('MIME type, if known.'),
    _meta: MetaSchema,
  })
  .describe('Binary resource contents.');
export type BlobResourceContents = z.infer<typeof BlobResourceContentsSchema>;

/** Either kind of resource contents (ACP `anyOf`, so no discriminator). */
export const EmbeddedResourceResourceSchema = z
  .union([TextResourceContentsSchema, BlobResourceContentsSchema], {
    error: 'expected resource contents: {uri, text} or {uri, blob}',
  })
  .describe('Text or binary resource contents.');
export type EmbeddedResourceResource = z.infer<typeof EmbeddedResourceResourceSchema>;

/** A resource whose contents travel with the message (needs `promptCapabilities.embeddedContext`). */
export const EmbeddedResourceSchema = z
  .looseObject({
    type: z.literal('resource'),
    resource: EmbeddedResourceResourceSchema,
    annotations,
    _meta: MetaSchema,
  })
  .describe('A resource embedded in the message.');
export type EmbeddedResource = z.infer<typeof EmbeddedResourceSchema>;

/** Any displayable content; `type` selects the variant. */
export const ContentBlockSchema = z
  .discriminatedUnion('type', [
    TextContentSchema,
    ImageContentSchema,
    AudioContentSchema,
    ResourceLinkSchema,
    EmbeddedResourceSchema,
  ])
  .describe('A content block: text, image, audio, resource_link or resource.');
export type ContentBlock = z.infer<typeof ContentBlockSchema>;
