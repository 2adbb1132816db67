	// A cache caught mid-edit: an `if` in `TryGet` is not closed yet, so the class takes the
// namespace's brace and the namespace is left open.
using System;
using System.Collections.Generic;

namespace Example.Caching
{
    public sealed class LruCache<TKey, TValue>
    {
        private readonly Dictionary<TKey, TValue> _items = new();

        public int Capacity { get; }

        public bool TryGet(TKey key, out TValue value)
        {
            if (_items.TryGetValue(key, out value))
            {
                Touch(key);
                return true;
            return false;
        }

        public void Put(TKey key, TValue value)
        {
            _items[key] = value;
        }

        private void Touch(TKey key)
        {
        }
    }
}
