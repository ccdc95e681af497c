({ response }) => {
  throw new Error('no price');
}