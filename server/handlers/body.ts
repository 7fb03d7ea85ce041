import type { Request } from 'express';

/** Attributes of a validated JSON:API request document. */
export function attributesOf(req: Request): Record<string, unknown> {
  const data = (req.body as { data?: { attributes?: Record<string, unknown> } } | undefined)?.data;
  return data?.attributes ?? {};
}

/** A to-one relationship id from a validated document, or undefined. */
export function relationshipId(req: Request, name: string): string | undefined {
  return relationshipIdIn(req.body, name);
}

/** A validated to-one relationship that may be emptied: its id, null for `{"data": null}`, undefined when absent. */
export function nullableRelationshipId(req: Request, name: string): string | null | undefined {
  const rel = (req.body as { data?: { relationships?: Record<string, { data?: { id?: string } | null }> } } | null)
    ?.data?.relationships?.[name];
  if (!rel || rel.data === undefined) return undefined;
  return rel.data === null ? null : rel.data.id;
}

/** relationshipId of a body not validated yet: undefined unless the relationship's id is a string. */
export function relationshipIdIn(body: unknown, name: string): string | undefined {
  const rel = (body as { data?: { relationships?: Record<string, { data?: { id?: unknown } | null } | null> } } | null)
    ?.data?.relationships?.[name];
  const id = rel?.data?.id;
  return typeof id === 'string' ? id : undefined;
}

/** Linkage ids of a validated relationship list body `{ data: [{type, id}] }`, de-duplicated in order. */
export function linkageIds(req: Request): string[] {
  const data = (req.body as { data: { id: string }[] }).data;
  return [...new Set(data.map((d) => d.id))];
}

/** Linkage ids of a validated to-many relationship of the request's resource, de-duplicated; undefined when absent. */
export function relationshipIds(req: Request, name: string): string[] | undefined {
  const rel = (req.body as { data?: { relationships?: Record<string, { data?: { id: string }[] }> } })?.data
    ?.relationships?.[name];
  return rel?.data ? [...new Set(rel.data.map((d) => d.id))] : undefined;
}

/** Reads a body up to `limit` bytes; null when it is (or declares to be) larger (the rest is not read). */
export async function readRawBody(
  body: AsyncIterable<Buffer>,
  declaredBytes: number | undefined,
  limit: number,
): Promise<Buffer | null> {
  if (declaredBytes !== undefined && declaredBytes > limit) return null;
  const parts: Buffer[] = [];
  let size = 0;
  for await (const part of body) {
    size += part.length;
    if (size > limit) return null;
    parts.push(part);
  }
  return Buffer.concat(parts);
}

/** True when the request carried a JSON:API document (some endpoints take an optional body). */
export const hasDocument = (req: Request): boolean =>
  typeof req.body === 'object' && req.body !== null && Object.keys(req.body as object).length > 0;

/** Where a request comes from: the terraform CLI marks its requests with `X-Terraform-Integration: cloud`. */
export const requestSource = (req: Request): 'terraform' | 'tfe-api' =>
  req.get('x-terraform-integration') === 'cloud' ? 'terraform' : 'tfe-api';

/** Express request whose route parameters are plain strings (Express 5 types them loosely). */
export type Req = Request<Record<string, string>>;
