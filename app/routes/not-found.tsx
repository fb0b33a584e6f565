import { data } from "react-router";

/** Any URL no route claims: a real 404 rendered by the root error boundary. */
export function loader() {
  throw data("We couldn't find that page. It may have moved.", { status: 404 });
}

export default function NotFound() {
  return null;
}
