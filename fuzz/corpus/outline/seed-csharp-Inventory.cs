	using System;
using System.Collections.Generic;
using static System.Math;

namespace Shop.Inventory
{
    /// <summary>An item in stock.</summary>
    public record Item(string Sku, int Quantity);

    public interface IInventory<TKey> where TKey : notnull
    {
        int Count { get; }
        Item? Find(TKey key);
    }

    [Serializable]
    public sealed class Inventory : IInventory<string>, IDisposable
    {
        private readonly Dictionary<string, Item> _items = new();
        public const string Source = "warehouse // not a comment";

        public Inventory() : this(new Dictionary<string, Item>()) { }

        internal Inventory(Dictionary<string, Item> items)
        {
            _items = items;
        }

        public int Count => _items.Count;

        public string Name { get; set; } = "main";

        public Item? Find(string key) => _items.TryGetValue(key, out var item) ? item : null;

        [Obsolete("use Find")]
        public Item? Find(string key, bool caseSensitive)
        {
            // legacy lookup
            return Find(caseSensitive ? key : key.ToLowerInvariant());
        }

        public async Task<IReadOnlyList<T>> LoadAsync<T>(CancellationToken ct = default) where T : Item
        {
            await Task.Yield();
            return Array.Empty<T>();
        }

        public void Dispose() { }

        private struct Slot
        {
            public int Index;
        }

        public delegate void Changed(Item item);

        public enum Mode { ReadOnly, ReadWrite }
    }
}
