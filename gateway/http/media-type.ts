// The media type of a Content-Type header, and whether it is JSON.

/** `application/json; charset=utf-8` → `application/json`; '' when absent. */
export function mediaTypeOf(contentType: string | null): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

/** application/json or any application/*+json. */
export function isJsonType(type: string): boolean {
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'));
}
