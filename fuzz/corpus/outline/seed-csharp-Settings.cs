	using System.Text.Json.Serialization;

namespace Shop.Settings;

public sealed class RetryPolicy
{
    public const int DefaultAttempts = 3;
    [JsonPropertyName("max_attempts")]
    public int MaxAttempts = DefaultAttempts;
    public readonly TimeSpan Delay, MaxDelay;
    public static RetryPolicy None = new RetryPolicy(0);
    internal int observed;
    private readonly ILogger _logger;

    public RetryPolicy(int maxAttempts) => MaxAttempts = maxAttempts;

    [Obsolete("Use ExecuteAsync with a CancellationToken; this overload will be removed in version 3.0 of the library.")]
    [MethodImpl(MethodImplOptions.AggressiveInlining | MethodImplOptions.AggressiveOptimization)]
    public async Task<TResult> ExecuteAsync<TResult>(Func<Task<TResult>> operation) where TResult : class
    {
        return await operation();
    }
}

public struct Window
{
    public int Width, Height;
    private int dpi;
}
