export function loader() {
  return Response.json({ error: "not implemented" }, { status: 501 });
}
