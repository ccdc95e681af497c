({ endpointParameters }) => {
  return {;
}