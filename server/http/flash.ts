import { createCookie, type Cookie } from "react-router";
import { z } from "zod";
import type { FlashMessage } from "../../domain/forms";
import { resolveAuthSecret } from "../auth/secret";
import { getConfig, publicUrl, type Config } from "../config";

/**
 * One message carried across a redirect in a signed cookie ("Listing saved"), read and cleared by
 * the next page's loader. Signed with the auth secret, so a visitor cannot make the site say
 * something in its own voice; HttpOnly, SameSite=Lax, Secure on an https site (where the
 * `__Host-` prefix also pins it to this host and path).
 */
export const FLASH_MAX_TEXT = 500;

const flashSchema = z.object({
  kind: z.enum(["success", "error", "info"]),
  text: z.string().min(1).max(FLASH_MAX_TEXT),
});

export interface Flash {
  /** The Set-Cookie value that carries `message` to the next request. */
  set(message: FlashMessage): Promise<string>;
  /** The message, if a valid one was sent, and the headers that clear the cookie (if any was sent). */
  read(request: Request): Promise<{ flash: FlashMessage | null; headers: Headers }>;
}

export function createFlash({ secret, secure }: { secret: string; secure: boolean }): Flash {
  const cookie: Cookie = createCookie(secure ? "__Host-flash" : "flash", {
    secrets: [secret],
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    secure,
    // Read on the very next page; a message nobody came back for should not greet them next week.
    maxAge: 60,
  });
  return {
    set: async (message) => cookie.serialize(flashSchema.parse(message)),
    async read(request) {
      const header = request.headers.get("Cookie");
      const headers = new Headers();
      if (!header || !header.includes(`${cookie.name}=`)) return { flash: null, headers };
      headers.append("Set-Cookie", await cookie.serialize("", { maxAge: 0, expires: new Date(0) }));
      // A bad signature parses as null; a good signature over the wrong shape is dropped too.
      const parsed = flashSchema.safeParse(await cookie.parse(header));
      return { flash: parsed.success ? parsed.data : null, headers };
    },
  };
}

let current: Flash | undefined;

function flash(): Flash {
  if (!current) {
    const config: Config = getConfig();
    current = createFlash({ secret: resolveAuthSecret(config), secure: publicUrl(config).startsWith("https:") });
  }
  return current;
}

/** For tests: a flash with its own secret, or back to the configured one. */
export function replaceFlash(next: Flash | undefined): void {
  current = next;
}

export const setFlash = (message: FlashMessage) => flash().set(message);

/**
 * For a layout's loader: `const { flash, headers } = await readFlash(request); return data({ flash }, { headers })`.
 * React Router passes a loader's Set-Cookie on to the page's response.
 */
export const readFlash = (request: Request) => flash().read(request);
