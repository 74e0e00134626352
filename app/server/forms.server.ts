import { data } from "react-router";

/**
 * Control characters no keyboard types and the database cannot store (a NUL
 * byte above all); tab, line feed and carriage return are text.
 */
// oxlint-disable-next-line no-control-regex -- matching them is the point
const CONTROL_CHARACTER = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;

const refused = (status: number, message: string) => data({ message }, { status });

/**
 * The form a browser sent, for every action that reads one: a urlencoded or
 * multipart body (an empty body is an empty form). Anything else is refused
 * with 415, a body that does not parse with 400, and a value or name holding a
 * control character with 400; each with a message the error page shows. The
 * HTTP layer has already limited the body's size (server/request-guards.ts).
 */
export async function readForm(request: Request): Promise<FormData> {
  const type = (request.headers.get("content-type") ?? "").toLowerCase();
  let form: FormData;
  if (type.startsWith("application/x-www-form-urlencoded") || type.startsWith("multipart/form-data")) {
    if (type.startsWith("multipart/") && !/;\s*boundary=/.test(type)) {
      throw refused(400, "The form could not be read (its parts are not marked). Reload the page and send it again.");
    }
    try {
      form = await request.formData();
    } catch {
      throw refused(400, "The form could not be read: it arrived incomplete or damaged. Reload the page and send it again.");
    }
  } else if ((await request.arrayBuffer()).byteLength === 0) {
    return new FormData();
  } else {
    throw refused(415, "This address takes a web form. Open the page and send the form from there.");
  }
  for (const [name, value] of form) {
    if (CONTROL_CHARACTER.test(name) || (typeof value === "string" && CONTROL_CHARACTER.test(value))) {
      throw refused(
        400,
        "Something you typed or pasted contains a hidden control character (such as a null byte) that cannot be stored. Remove it and send the form again.",
      );
    }
  }
  return form;
}

/** True when a text holds a control character that `readForm` refuses (for bodies read another way). */
export const hasControlCharacter = (value: string) => CONTROL_CHARACTER.test(value);

/** A name given by the browser (an uploaded file's), kept as text: control characters dropped. */
export const withoutControlCharacters = (value: string) => value.replace(new RegExp(CONTROL_CHARACTER.source, "g"), "");
