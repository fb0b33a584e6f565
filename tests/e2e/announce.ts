import http from "node:http";

/**
 * POSTs only the start of a body announced as `bytes` long and returns the answer's status: how a
 * test sees the body limit refuse a large upload before reading it, without sending megabytes (or
 * losing the answer to a reset connection while still writing them).
 */
export function announce(
  baseUrl: string,
  pathname: string,
  bytes: number,
  { cookie = "", contentType = "multipart/form-data; boundary=x", start = "--x\r\n" } = {},
): Promise<number> {
  return new Promise((resolve, reject) => {
    const url = new URL(pathname, baseUrl);
    const request = http.request(
      url,
      {
        method: "POST",
        headers: {
          "Content-Type": contentType,
          "Content-Length": String(bytes),
          ...(cookie ? { Cookie: cookie } : {}),
          Origin: url.origin,
        },
      },
      (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      },
    );
    request.on("error", reject);
    request.write(start);
  });
}
