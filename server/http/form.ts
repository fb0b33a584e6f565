import { badRequest } from "../errors";

/**
 * The body of a form POST. A body that claims to be a form but cannot be read as one (multipart
 * without a boundary, or with a boundary the body never uses) makes `request.formData()` throw;
 * that is the sender's mistake, answered 400 with the reason instead of a 500.
 */
export async function readForm(request: Request): Promise<FormData> {
  try {
    return await request.formData();
  } catch {
    throw badRequest(
      "The form could not be read: send it as application/x-www-form-urlencoded, or as multipart/form-data with its boundary.",
    );
  }
}
