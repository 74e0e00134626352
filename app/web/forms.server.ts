import { data } from "react-router";
import { hasControlCharacter } from "../domain/validators/text.ts";
import type { KeyedActionData } from "../lib/keyed-form.ts";

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
    if (hasControlCharacter(name) || (typeof value === "string" && hasControlCharacter(value))) {
      throw refused(
        400,
        "Something you typed or pasted contains a hidden control character (such as a null byte) that cannot be stored. Remove it and send the form again.",
      );
    }
  }
  return form;
}

/** The answer to one of a page's forms that did not pass (400): which form, and Conform's result, for `resultFor`. */
export const invalidForm = (key: string, result: unknown) =>
  data({ key, result: result as NonNullable<KeyedActionData>["result"] } satisfies KeyedActionData, { status: 400 });
