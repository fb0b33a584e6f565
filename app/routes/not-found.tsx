import { notFound } from "../../server/errors";

/** Any URL no route claims: a real 404 rendered by the root error boundary. */
export function loader() {
  throw notFound("We couldn't find that page. It may have moved.");
}

export default function NotFound() {
  return null;
}
